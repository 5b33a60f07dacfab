import { getAddress, parseUnits } from "viem";
import { z } from "zod";
import { assetSchema, QUEST_DECIMALS } from "~/modules/ledger/assets";

/** The Withdraw form: shared by the Balance screen's form and its action. */
export const withdrawalFormSchema = z.object({
  amount: z
    .string({ error: "Enter an amount." })
    .trim()
    .regex(/^\d{1,30}(\.\d{1,18})?$/, "Enter an amount such as 12 or 12.5, with at most 18 decimals.")
    .transform((value) => parseUnits(value, QUEST_DECIMALS))
    .refine((value) => value > 0n, "Enter an amount above 0."),
  destination: z
    .string({ error: "Choose one of your linked wallets." })
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/, "Choose one of your linked wallets.")
    .transform((value) => getAddress(value.toLowerCase())),
  asset: z.string({ error: "Choose what to withdraw." }).pipe(assetSchema),
  /** Generated once per form display: a double-submitted form creates one withdrawal. */
  requestKey: z.uuid("The form expired. Reload the page and try again."),
});

export type WithdrawalInput = z.output<typeof withdrawalFormSchema>;
