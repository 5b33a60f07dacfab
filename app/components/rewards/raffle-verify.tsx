import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import {
  ChevronLeft,
  ChevronRight,
  Clock,
  Dices,
  FileJson,
  Loader2,
  Lock,
  RefreshCw,
  ShieldCheck,
  ShieldQuestion,
  ShieldX,
  Terminal,
  Trophy,
} from "lucide-react";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import type { PublicClient } from "viem";
import { LocalTime } from "~/components/campaigns/local-time";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useRootChains } from "~/hooks/root-data";
import { route } from "~/lib/routes";
import type { RaffleCheck, RaffleProof, RaffleVerification } from "~/modules/rewards/raffle-proof";
import type { ChainConfig } from "~/wallet/chain-config";
import { CHAIN_NAMES } from "~/wallet/chains";

/** The Verify page's parts: the checks run in the browser, and the draw step by step. */
export const chainName = (chainId: number) => `${CHAIN_NAMES[chainId] ?? "Chain"} (${chainId})`;
export const n = (value: number | string) => Number(value).toLocaleString("en");

export function CheckCard({ proof, drawn }: { proof: RaffleProof; drawn: boolean }) {
  const chains = useRootChains();
  // The same nodes after a revalidation are not a reason to check again.
  const configKey = JSON.stringify(chains ?? null);
  const config = useMemo(() => (JSON.parse(configKey) as ChainConfig | null) ?? undefined, [configKey]);
  const [attempt, setAttempt] = useState(0);
  const request = useMemo(() => ({ proof, config, attempt }), [proof, config, attempt]);
  const [done, setDone] = useState<{ request: typeof request; result: CheckResult } | null>(null);
  useEffect(() => {
    let live = true;
    void checkInBrowser(request.proof, request.config).then((result) => {
      if (live) setDone({ request, result });
    });
    return () => {
      live = false;
    };
  }, [request]);
  // Checking until the latest request has its answer.
  const result = done?.request === request ? done.result : null;
  const check = () => setAttempt((a) => a + 1);

  const verdict = verdictOf(proof, drawn, result);
  const Icon = verdict.icon;
  return (
    <Card role="region" aria-labelledby="result-heading">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 items-start gap-3">
          <Icon className={`mt-0.5 size-7 shrink-0 ${verdict.tone} ${result ? "" : "animate-spin"}`} aria-hidden />
          <div className="grid min-w-0 gap-1.5">
            <CardTitle id="result-heading">{verdict.title}</CardTitle>
            <CardDescription role="status" aria-live="polite">
              {verdict.words}
            </CardDescription>
          </div>
        </div>
        <Button variant="outline" onClick={check} pending={!result}>
          {result && <RefreshCw aria-hidden />} Check again
        </Button>
      </CardHeader>
      <CardContent>
        {result ? (
          <ul className="grid gap-3" aria-label="Checks">
            {result.verification.checks.map((c) => (
              <CheckRow key={c.name} check={c} waiting={waiting(proof, c)} />
            ))}
          </ul>
        ) : (
          <ul className="grid gap-3" aria-hidden>
            {Object.keys(CHECK_TITLES).map((name) => (
              <li key={name} className="h-12 animate-pulse rounded-lg bg-muted" />
            ))}
          </ul>
        )}
        {result && <p className="mt-4 text-xs text-muted-foreground">Checked in your browser at {result.at.toLocaleTimeString("en")}.</p>}
      </CardContent>
    </Card>
  );
}

const CHECK_TITLES: Record<string, string> = {
  commitment: "The secret matches its commitment",
  entrants: "The entrant list matches its hash",
  block: "The block hash comes from the chain",
  seed: "The seed follows from the three",
  winners: "The winners follow from the seed",
  proof: "The proof can be checked",
};

/** Before the draw these checks can only wait: what they check is revealed by the draw. */
const WAIT_FOR_DRAW = ["commitment", "block", "seed", "winners"];
const waiting = (proof: RaffleProof, check: RaffleCheck) => proof.secret === null && !check.ok && WAIT_FOR_DRAW.includes(check.name);

/** The overall result in a sentence: what the checks add up to. */
function verdictOf(proof: RaffleProof, drawn: boolean, result: CheckResult | null) {
  const amber = "text-amber-600 dark:text-amber-400";
  if (!result) {
    const words = drawn
      ? `Reading block ${n(proof.blockNumber)} from ${chainName(proof.chainId)} and re-running the draw in your browser.`
      : "Checking the frozen entrant list in your browser.";
    return { icon: Loader2, tone: "text-muted-foreground", title: "Checking…", words };
  }
  const { checks, ok } = result.verification;
  const failed = checks.filter((c) => !c.ok && !waiting(proof, c));
  if (result.unchecked) return { icon: ShieldQuestion, tone: amber, title: "Not checked", words: "Your browser could not run the checks: see below." };
  if (failed.length > 0 && !(result.nodeProblem && failed.length === 1)) {
    const what = failed.length === 1 ? "A check failed" : `${failed.length} of ${checks.length} checks failed`;
    return {
      icon: ShieldX,
      tone: "text-destructive",
      title: drawn ? "This draw does not check out" : "Something does not match",
      words: `${what}: see below.`,
    };
  }
  if (!drawn) {
    const words = `Fixed so far: the commitment to the secret, the ${n(proof.entrants.length)} frozen entrants (their list matches its published hash) and block ${n(proof.blockNumber)} of ${chainName(proof.chainId)}, which the draw waits for. The secret is revealed after the draw; the other checks run then.`;
    return { icon: ShieldQuestion, tone: amber, title: "Not drawn yet", words };
  }
  if (!ok) {
    const words =
      "The chain could not be read, so the block hash is unconfirmed; every other check passed. Try again, or check it from a terminal against a node of your choosing.";
    return { icon: ShieldQuestion, tone: amber, title: "Not fully checked", words };
  }
  return {
    icon: ShieldCheck,
    tone: "text-green-700 dark:text-green-400",
    title: "This draw checks out",
    words: `Your browser re-ran it: the winners follow from the secret committed to in advance, the frozen entrants and the hash of block ${n(proof.blockNumber)}, which nobody could know beforehand.`,
  };
}

function CheckRow({ check, waiting }: { check: RaffleCheck; waiting: boolean }) {
  return (
    <li className="flex items-start gap-3 rounded-lg border p-3">
      {waiting ? (
        <Clock className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
      ) : (
        <span
          aria-hidden
          className={`mt-0.5 grid size-5 shrink-0 place-items-center rounded-full text-xs font-bold ${check.ok ? "bg-green-600/15 text-green-700 dark:text-green-400" : "bg-destructive/15 text-destructive"}`}
        >
          {check.ok ? "✓" : "✗"}
        </span>
      )}
      <div className="grid min-w-0 gap-0.5 text-sm">
        <p className="font-medium">
          <span className="sr-only">{waiting ? "Waiting: " : check.ok ? "Passed: " : "Failed: "}</span>
          {CHECK_TITLES[check.name] ?? check.name}
        </p>
        <p className="wrap-anywhere text-muted-foreground">{check.words}</p>
      </div>
    </li>
  );
}

/** `nodeProblem`: why the chain could not be read; `unchecked`: the checks could not even load. */
type CheckResult = { verification: RaffleVerification; nodeProblem: string | null; unchecked?: boolean; at: Date };

class NodeProblem extends Error {}

/** Clients by node list, so that "Check again" reuses one (and its transport's ranking) rather than starting another. */
const clients = new Map<string, PublicClient>();

/**
 * Runs every check of `verifyRaffle` in the browser, reading the block's hash from the page's
 * node for the chain (chain-config.ts: the local chain's RPC, the node providers' endpoints).
 * viem and the checks are loaded here, not in the page's first load. A node that cannot be read
 * fails the block check with words saying why.
 */
async function checkInBrowser(proof: RaffleProof, config: ChainConfig | undefined): Promise<CheckResult> {
  const at = new Date();
  const chain = chainName(proof.chainId);
  try {
    const [{ verifyFromSources, verifyRaffle }, viem, { chainTransport, nodeEndpoints }] = await Promise.all([
      import("~/modules/rewards/raffle-proof"),
      import("viem"),
      import("~/wallet/chain-config"),
    ]);
    const readBlockHash = async ({ chainId, blockNumber }: { chainId: number; blockNumber: bigint }) => {
      const urls = config ? nodeEndpoints(config).get(chainId) : undefined;
      if (!urls?.length) throw new NodeProblem("this site names no public node of that chain to read it from");
      const key = urls.join(" ");
      const client = clients.get(key) ?? (viem.createPublicClient({ transport: chainTransport(urls) }) as PublicClient);
      clients.set(key, client);
      try {
        const served = await client.getChainId();
        if (served !== chainId) throw new NodeProblem(`the node answered for chain ${served} instead`);
        return (await client.getBlock({ blockNumber })).hash;
      } catch (error) {
        if (error instanceof viem.BlockNotFoundError) return null;
        if (error instanceof NodeProblem) throw error;
        throw new NodeProblem(`its node did not answer (${messageOf(error)})`);
      }
    };
    try {
      return { verification: await verifyFromSources({ proof, readBlockHash }), nodeProblem: null, at };
    } catch (error) {
      const problem = messageOf(error);
      const { checks } = verifyRaffle(proof, null);
      const words = `The hash of block ${proof.blockNumber} on ${chain} could not be read: ${problem}.`;
      return { verification: { ok: false, checks: checks.map((c) => (c.name === "block" ? { ...c, words } : c)) }, nodeProblem: problem, at };
    }
  } catch (error) {
    // The checks themselves could not load (offline, a new version deployed): nothing was checked.
    const words = `Your browser could not load the checks: ${messageOf(error)}. Reload the page to try again.`;
    return { verification: { ok: false, checks: [{ name: "proof", ok: false, words }] }, nodeProblem: null, unchecked: true, at };
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return ((error as { shortMessage?: string }).shortMessage ?? error.message).replace(/\.$/, "");
  return String(error);
}

/** Before the campaign ends only the commitment is fixed. */
export function OpenCard({ endsAt, chainId }: { endsAt: Date; chainId: number | null }) {
  return (
    <Card>
      <CardHeader className="flex-row items-start gap-3">
        <ShieldQuestion className="mt-0.5 size-7 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
        <div className="grid gap-1.5">
          <CardTitle>Not drawn yet</CardTitle>
          <CardDescription>What is fixed so far, and what comes next.</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-2 text-sm">
          <li className="flex gap-2">
            <span aria-hidden className="font-bold text-green-700 dark:text-green-400">
              ✓
            </span>
            <span>The commitment to the draw&apos;s secret is published (below): the secret can no longer change.</span>
          </li>
          <li className="flex gap-2">
            <Clock className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
            <span>
              When the campaign ends (<LocalTime value={endsAt} />) the entrants are frozen and a future block
              {chainId !== null ? ` of ${chainName(chainId)}` : ""} is named.
            </span>
          </li>
          <li className="flex gap-2">
            <Lock className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
            <span>Once that block is mined the secret is revealed, and the winners are drawn from it, the block&apos;s hash and the entrant list.</span>
          </li>
        </ol>
      </CardContent>
    </Card>
  );
}

export function Step({ index, title, description, children }: { index: number; title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <span className="grid size-6 place-items-center rounded-full bg-muted text-xs tabular-nums" aria-hidden>
            {index}
          </span>
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 pt-4">{children}</CardContent>
    </Card>
  );
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 text-sm">
      <span className="text-xs font-medium text-muted-foreground">{label}</span>
      <div className="min-w-0">{children}</div>
    </div>
  );
}

export function Hash({ value }: { value: string }) {
  return <code className="block rounded bg-muted px-2 py-1 font-mono text-xs break-all">{value}</code>;
}

export function Pending({ icon: Icon, children }: { icon: typeof Clock; children: ReactNode }) {
  return (
    <span className="flex items-start gap-1.5 text-muted-foreground">
      <Icon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      <span>{children}</span>
    </span>
  );
}

const ENTRANTS_PAGE = 100;

/** `yours`: the signed-in member's entrant id in this draw, when they entered it. */
export function EntrantsCard({ proof, yours }: { proof: RaffleProof; yours: string | null }) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(proof.entrants.length / ENTRANTS_PAGE));
  const first = page * ENTRANTS_PAGE;
  const shown = proof.entrants.slice(first, first + ENTRANTS_PAGE);
  const wins = new Map(proof.winners.map((id, i) => [id, i + 1]));
  return (
    <Step index={3} title="Entrants" description="Frozen when the campaign ended: the members who completed every task, in the order they finished.">
      <Fact label="Count">
        <span className="tabular-nums">{n(proof.entrants.length)}</span>
      </Fact>
      <Fact label="Entrant-list hash">
        <Hash value={proof.entrantsHash} />
      </Fact>
      {yours !== null && (
        <Fact label="Your entrant id">
          <Hash value={yours} />
        </Fact>
      )}
      {proof.entrants.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">
          Nobody completed every task, so nobody entered the draw.
        </p>
      ) : (
        <>
          <ol className="max-h-80 divide-y overflow-y-auto rounded-lg border text-sm" aria-label="Entrants in draw order" start={first + 1}>
            {shown.map((entrant, i) => (
              <li key={first + i} className="flex items-center gap-3 px-3 py-1.5">
                <span className="w-12 shrink-0 text-right text-xs text-muted-foreground tabular-nums">{n(first + i + 1)}</span>
                <span className="min-w-0 flex-1 truncate" title={entrant.id}>
                  {entrant.label}
                </span>
                {entrant.id === yours && <Badge variant="outline">You</Badge>}
                {wins.has(entrant.id) && (
                  <Badge variant="success">
                    <Trophy aria-hidden /> Winner {wins.get(entrant.id)}
                  </Badge>
                )}
              </li>
            ))}
          </ol>
          {pages > 1 && (
            <nav aria-label="Entrant pages" className="flex items-center justify-between gap-2">
              <Button variant="outline" size="sm" onClick={() => setPage(page - 1)} disabled={page === 0}>
                <ChevronLeft aria-hidden /> Previous
              </Button>
              <span className="text-xs text-muted-foreground tabular-nums">
                {n(first + 1)}–{n(first + shown.length)} of {n(proof.entrants.length)}
              </span>
              <Button variant="outline" size="sm" onClick={() => setPage(page + 1)} disabled={page >= pages - 1}>
                Next <ChevronRight aria-hidden />
              </Button>
            </nav>
          )}
        </>
      )}
    </Step>
  );
}

export function WinnersCard({ proof, drawn, yours }: { proof: RaffleProof; drawn: boolean; yours: string | null }) {
  const labels = new Map(proof.entrants.map((e) => [e.id, e.label]));
  return (
    <Step index={4} title="Winners" description={`Drawn in order from the seed: up to ${n(proof.winnersWanted)} of the entrants.`}>
      {!drawn ? (
        <Pending icon={Dices}>Drawn once block {n(proof.blockNumber)} is mined and the secret revealed.</Pending>
      ) : proof.winners.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">Nobody entered the draw, so nobody won.</p>
      ) : (
        <ol className="grid gap-2 text-sm" aria-label="Winners in draw order">
          {proof.winners.map((id, i) => (
            <li key={i} className="flex items-center gap-3 rounded-lg border px-3 py-2">
              <span className="grid size-7 shrink-0 place-items-center rounded-full bg-brand/20 text-xs font-semibold text-lime-800 tabular-nums dark:text-brand">
                {i + 1}
              </span>
              <span className="min-w-0 flex-1 truncate font-medium" title={id}>
                {labels.get(id) ?? id}
              </span>
              {id === yours && <Badge variant="success">You</Badge>}
            </li>
          ))}
        </ol>
      )}
    </Step>
  );
}

/**
 * The same checks from a terminal, in a copy of the repository: the command names this app
 * (`--app`) and, for a chain other than the local one, asks for a node of it (`--rpc`).
 */
export function TerminalCheck({ poolId, hasProof, appUrl, chainId }: { poolId: string; hasProof: boolean; appUrl: string; chainId: number | null }) {
  const ownNode = chainId !== null && chainId !== LOCAL_CHAIN_ID;
  const command = `npm run verify-raffle -- ${poolId} --app ${appUrl}${ownNode ? " --rpc <node URL>" : ""}`;
  return (
    <Card>
      <CardContent className="grid gap-3 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <Terminal className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          Or check it from a terminal, in a copy of the Questline repository:
        </p>
        <code data-testid="verify-command" className="rounded bg-muted px-2 py-1 font-mono text-xs break-all">
          {command}
        </code>
        {ownNode && <p className="text-muted-foreground">&lt;node URL&gt;: a node of {chainName(chainId)} you trust, which gives the block&apos;s hash.</p>}
        {hasProof && (
          <p className="flex flex-wrap items-center gap-2 text-muted-foreground">
            <FileJson className="size-4 shrink-0" aria-hidden />
            <a href={route("rewards.proof", { pool: poolId })} className="font-medium text-foreground underline underline-offset-4">
              The proof as JSON
            </a>
            <span>for your own checker.</span>
          </p>
        )}
      </CardContent>
    </Card>
  );
}
