import { SectionNav } from "~/components/section-nav";
import { route } from "~/lib/routes";

const SCREENS = [
  { to: route("operator.categories"), label: "Categories" },
  { to: route("operator.withdrawals"), label: "Withdrawals" },
  { to: route("operator.deposits"), label: "Deposits" },
];

/** Links between the operators' screens. */
export function OperatorNav() {
  return <SectionNav label="Operator screens" links={SCREENS} className="rounded-lg border p-1" />;
}
