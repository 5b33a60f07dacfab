import { Coins, Gift, Landmark, Send } from "lucide-react";
import { useState } from "react";
import { Form, Link, useNavigation, useRevalidator } from "react-router";
import { DepositCard } from "~/components/balance/deposit-card";
import { EmptyState } from "~/components/empty-state";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { route } from "~/lib/routes";
import type { VaultChain } from "~/modules/balance/balance-page";
import { formatAmount } from "~/lib/token-amounts";
import { assetAmount, assetParts, type Asset } from "~/modules/ledger/assets";
import { CHAIN_NAMES } from "~/wallet/chains";
import { poolAmount, poolHeadline, type PoolTerms } from "~/modules/rewards/pool-words";
import { DISTRIBUTION_LABELS, type PoolState } from "~/modules/rewards/pool-types";

/** A pool on the project's Rewards page (projectRewards): its terms, state, escrow and what it paid. */
type ProjectPool = PoolTerms & {
  id: string;
  campaign: { slug: string; name: string };
  state: PoolState;
  escrowed: bigint;
  returned: bigint;
  paidTo: number;
  paidTotal: bigint;
};

const symbolOf = (asset: string) => asset.split(":")[0]!;

/** The project's treasury: what it holds per token, free to escrow into new token rewards. */
export function TreasuryCard({ treasury }: { treasury: { asset: Asset; balance: bigint; decimals: number }[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Landmark className="size-4" aria-hidden /> Treasury
        </CardTitle>
        <CardDescription>Free to escrow into token rewards. Each token reward holds its whole amount from the moment it is saved.</CardDescription>
      </CardHeader>
      <CardContent>
        {treasury.length === 0 ? (
          <p className="text-sm text-muted-foreground">The treasury is empty: fund it from your balance or by a deposit.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Treasury balances">
            {treasury.map((t) => (
              <li key={t.asset} className="flex items-baseline justify-between gap-3">
                <span className="text-sm text-muted-foreground">{assetLabel(t.asset)}</span>
                <span className="text-xl font-semibold whitespace-nowrap tabular-nums">
                  {formatAmount(t.balance, { decimals: t.decimals })} {symbolOf(t.asset)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** Fund: tokens from the member's own available balance to the treasury, at once. */
export function FundProject({
  own,
  requestKey,
  errors,
}: {
  own: { asset: Asset; available: bigint; decimals: number }[];
  requestKey: string;
  errors: Record<string, string>;
}) {
  const navigation = useNavigation();
  const [asset, setAsset] = useState(own[0]?.asset);
  const chosen = own.find((b) => b.asset === asset) ?? own[0]!;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Send className="size-4" aria-hidden /> Fund from your balance
        </CardTitle>
        <CardDescription>Moves tokens from your Questline balance to the project&apos;s treasury. This cannot be undone.</CardDescription>
      </CardHeader>
      <CardContent>
        {own.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            You hold no tokens on Questline to send.{" "}
            <Link to={route("balance")} className="font-medium text-foreground underline underline-offset-4">
              Deposit on Balance
            </Link>{" "}
            first, or deposit straight to the project.
          </p>
        ) : (
          <Form method="post" className="grid gap-4" noValidate>
            <FormError message={errors.form ?? errors.requestKey} />
            <input type="hidden" name="requestKey" value={requestKey} />
            <Field id="asset" label="Token" hint={`Available to send: ${assetAmount(chosen.available, chosen.asset, chosen.decimals)}.`} error={errors.asset}>
              <Select {...fieldProps("asset", errors.asset)} value={chosen.asset} onChange={(event) => setAsset(event.target.value as Asset)}>
                {own.map((b) => (
                  <option key={b.asset} value={b.asset}>
                    {assetLabel(b.asset)}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="amount" label="Amount" error={errors.amount}>
              <Input {...fieldProps("amount", errors.amount)} inputMode="decimal" autoComplete="off" placeholder="100" />
            </Field>
            <Button type="submit" variant="brand" className="justify-self-start" pending={navigation.state === "submitting"}>
              <Coins aria-hidden /> Fund
            </Button>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}

/** A deposit from the member's wallet straight into the treasury, with the project's own reference. */
export function ProjectDeposit({ chain, depositRef, projectName }: { chain: VaultChain | null; depositRef: string; projectName: string }) {
  const revalidator = useRevalidator();
  if (!chain) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Deposit to the project</CardTitle>
          <CardDescription>No network with Questline&apos;s vault is set up on this server.</CardDescription>
        </CardHeader>
      </Card>
    );
  }
  return (
    <div className="grid gap-2">
      <DepositCard
        chain={chain}
        depositRef={depositRef}
        onSent={() => void revalidator.revalidate()}
        into={{
          title: "Deposit to the project",
          description: `From your wallet on ${chain.chainName} into ${projectName}'s treasury.`,
          credited: "the treasury is credited",
          key: `project-deposit.${depositRef.slice(2, 10)}`,
        }}
      />
      <p className="px-1 text-xs text-muted-foreground">
        The project&apos;s deposit reference (any <code className="whitespace-nowrap">DepositVault.deposit</code> carrying it funds the treasury):{" "}
        <code className="font-mono break-all text-foreground">{depositRef}</code>
      </p>
    </div>
  );
}

const STATE_BADGES: Record<PoolState, { label: string; variant: "outline" | "secondary" | "brand" | "warning" | "success" }> = {
  draft: { label: "Draft", variant: "outline" },
  funded: { label: "Funded", variant: "secondary" },
  live: { label: "Live", variant: "brand" },
  drawing: { label: "Drawing", variant: "warning" },
  paying: { label: "Paying out", variant: "warning" },
  paid: { label: "Paid", variant: "success" },
};

/** Every pool of every campaign: its state, what it holds, paid and returned. */
export function ProjectPools({ projectSlug, pools, manages }: { projectSlug: string; pools: ProjectPool[]; manages: boolean }) {
  if (pools.length === 0) {
    return (
      <EmptyState icon={Gift} title="No rewards yet">
        {manages
          ? "Add a reward to a campaign from its page: XP, or tokens escrowed from the treasury."
          : "This project's campaigns pay no reward beyond their tasks' XP yet."}
      </EmptyState>
    );
  }
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Campaign rewards</CardTitle>
        <CardDescription>Newest campaign first. Token rewards pay from their escrow; what is not paid goes back to the treasury.</CardDescription>
      </CardHeader>
      <CardContent className="overflow-x-auto">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Campaign</TableHead>
              <TableHead>Reward</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Escrowed</TableHead>
              <TableHead className="text-right">Paid</TableHead>
              <TableHead className="text-right">Returned</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {pools.map((p) => {
              const badge = STATE_BADGES[p.state];
              const token = p.kind === "token";
              return (
                <TableRow key={p.id}>
                  <TableCell>
                    <Link className="font-medium hover:underline" to={route("campaigns.show", { project: projectSlug, campaign: p.campaign.slug })}>
                      {p.campaign.name}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <span className="grid">
                      <span>{poolHeadline(p)}</span>
                      <span className="text-xs text-muted-foreground">{DISTRIBUTION_LABELS[p.distribution].title}</span>
                    </span>
                  </TableCell>
                  <TableCell>
                    <Badge variant={badge.variant}>{badge.label}</Badge>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{token ? poolAmount(p, p.escrowed) : "—"}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {p.state === "paid" ? (
                      <span className="grid">
                        <span>{poolAmount(p, p.paidTotal)}</span>
                        <span className="text-xs text-muted-foreground">{p.paidTo === 1 ? "1 member" : `${p.paidTo.toLocaleString("en")} members`}</span>
                      </span>
                    ) : (
                      "—"
                    )}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{token && p.state === "paid" ? poolAmount(p, p.returned) : "—"}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

/** An asset as people name it: "QUEST on Questline Local". */
function assetLabel(asset: Asset): string {
  const { symbol, chainId } = assetParts(asset);
  return `${symbol} on ${CHAIN_NAMES[chainId] ?? `chain ${chainId}`}`;
}
