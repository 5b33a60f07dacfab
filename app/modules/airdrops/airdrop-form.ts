import { formText, parseForm } from "~/lib/forms";
import { formatAmount } from "~/lib/token-amounts";
import { zoneDateFields } from "~/modules/tasks/local-datetime";
import { airdropSchema, amountsError } from "./airdrop.schema";
import type { AirdropRule } from "./airdrop-types";

/** What the airdrop form sent, as typed, to show again beside its errors. */
export type AirdropValues = {
  name: string;
  slug: string;
  description: string;
  asset: string;
  rule: string;
  total: string;
  rankAmounts: string;
  minPoints: string;
  startsAt: string;
  endsAt: string;
  claimDeadline: string;
  published: boolean;
};

/** The airdrop form: its values as typed and the parsed input (dates in the member's time zone). */
export function parseAirdropForm(formData: FormData) {
  const values: AirdropValues = {
    name: formText(formData, "name"),
    slug: formText(formData, "slug"),
    description: formText(formData, "description"),
    asset: formText(formData, "asset"),
    rule: formText(formData, "rule"),
    total: formText(formData, "total"),
    rankAmounts: formText(formData, "rankAmounts"),
    minPoints: formText(formData, "minPoints"),
    startsAt: formText(formData, "startsAt"),
    endsAt: formText(formData, "endsAt"),
    claimDeadline: formText(formData, "claimDeadline"),
    published: formData.get("published") === "on",
  };
  const form = parseForm(airdropSchema, zoneDateFields(formData, ["startsAt", "endsAt", "claimDeadline"]));
  // Every field at once: the amounts too when an empty date kept the schema from checking them.
  const amounts = form.ok ? null : amountsError(values);
  if (!form.ok && amounts && !form.errors[amounts.field]) form.errors[amounts.field] = amounts.message;
  return { values, form };
}

/** A saved airdrop's amounts as the form shows them: whole tokens, no grouping. */
const tokens = (units: bigint | string) => formatAmount(BigInt(units), { maxFraction: 18, group: false });

/** A saved airdrop as the edit form's starting values (dates stay moments: the form shows them in the member's zone). */
export function airdropFormDefaults(a: {
  name: string;
  slug: string;
  description: string;
  asset: string;
  rule: AirdropRule;
  total: bigint;
  rankAmounts: string[] | null;
  minPoints: number;
  publishedAt: Date | null;
}) {
  return {
    name: a.name,
    slug: a.slug,
    description: a.description,
    asset: a.asset,
    rule: a.rule as string,
    total: a.rule === "pro_rata" ? tokens(a.total) : "",
    rankAmounts: (a.rankAmounts ?? []).map(tokens).join(", "),
    minPoints: String(a.minPoints),
    published: a.publishedAt !== null,
  };
}
