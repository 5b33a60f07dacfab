import { SectionNav } from "~/components/section-nav";
import { route } from "~/lib/routes";

const SCREENS = [
  { to: route("operator.categories"), label: "Categories" },
  { to: route("operator.withdrawals"), label: "Withdrawals" },
  { to: route("operator.deposits"), label: "Deposits" },
  { to: route("operator.jobs"), label: "Jobs" },
];

/** Links between the operators' screens (narrower on phones, so the four fit one line at 375 px). */
export function OperatorNav() {
  return <SectionNav label="Operator screens" links={SCREENS} className="rounded-lg border p-1 max-sm:[&_a]:px-2" />;
}
