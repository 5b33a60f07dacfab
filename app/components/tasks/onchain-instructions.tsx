import { ArrowRight, Check, Copy, ExternalLink, Wallet } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { route } from "~/lib/routes";
import type { OnchainState, TaskBrief } from "~/modules/tasks/task-page";
import { shortAddress } from "~/wallet/chains";

type OnchainBrief = Extract<TaskBrief, { type: "hold_token" | "nft_hold" | "contract_call" | "event_emitted" | "wallet_activity" }>;

const linkClass = "font-medium underline underline-offset-4 wrap-anywhere";
const shortHash = (hash: string) => `${hash.slice(0, 6)}…${hash.slice(-4)}`;

/** A link to the chain's explorer, said as leaving the site. */
function ExplorerLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={linkClass}>
      {children}
      <ExternalLink className="ml-1 inline size-3.5 align-[-2px]" aria-hidden />
      <span className="sr-only"> (opens the explorer in a new tab)</span>
    </a>
  );
}

/** A contract's address: shortened and linked to the explorer, or (a local chain has none) in full with a copy button. */
export function ContractAddress({ address, explorer }: { address: string; explorer: string | null }) {
  const [copied, setCopied] = useState(false);
  if (explorer) {
    return (
      <ExplorerLink href={`${explorer}/address/${address}`}>
        <code className="font-mono text-sm">{shortAddress(address)}</code>
      </ExplorerLink>
    );
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      setCopied(true);
      toast.success("Address copied");
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error("Copy did not work: select the address and copy it yourself.");
    }
  };
  return (
    <span className="inline-flex max-w-full items-center gap-1 align-middle">
      <code className="font-mono text-xs break-all">{address}</code>
      <Button type="button" variant="ghost" size="icon" className="size-7 shrink-0" onClick={copy} aria-label="Copy the contract's address">
        {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
      </Button>
    </span>
  );
}

/** "Go to …": where members do it; a path on this site opens in the same tab, a link out in a new one. */
function GoButton({ href, label }: { href: string; label: string }) {
  if (!href) return null;
  if (href.startsWith("/")) {
    return (
      <Button asChild variant="outline" className="w-fit">
        <Link to={href}>
          Go to {label} <ArrowRight aria-hidden />
        </Link>
      </Button>
    );
  }
  return (
    <Button asChild variant="outline" className="w-fit">
      <a href={href} target="_blank" rel="noopener noreferrer">
        Go to {label} <ExternalLink aria-hidden />
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    </Button>
  );
}

const hostOf = (href: string) => (href.startsWith("/") ? href : (/^https?:\/\/([^/]+)/.exec(href)?.[1] ?? href));

function CodeList({ items, label }: { items: string[]; label: string }) {
  return (
    <ul className="grid gap-1 rounded-lg border-l-4 border-brand bg-muted/50 px-4 py-3" aria-label={label}>
      {items.map((item) => (
        <li key={item}>
          <code className="font-mono text-xs break-all">{item}</code>
        </li>
      ))}
    </ul>
  );
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** What an on-chain task asks, in plain words: what to hold, call, emit or have, on which network, at which contract. */
export function OnchainInstructions({ brief }: { brief: OnchainBrief }) {
  const on = <strong>{brief.network}</strong>;
  switch (brief.type) {
    case "hold_token":
      return (
        <div className="grid gap-2">
          <p>
            Hold at least{" "}
            <strong>
              {brief.amount} {brief.symbol}
            </strong>{" "}
            on {on} in one of your linked wallets
            {brief.snapshotBlock !== null ? (
              <>
                {" "}
                at block <strong>{brief.snapshotBlock.toLocaleString("en")}</strong> (the balance is read as it was then)
              </>
            ) : null}
            , then press Check.
          </p>
          {brief.tokenAddress && (
            <p className="text-sm text-muted-foreground">
              Token contract: <ContractAddress address={brief.tokenAddress} explorer={brief.explorer} />
            </p>
          )}
        </div>
      );
    case "nft_hold": {
      const what = brief.name || "an NFT of the collection";
      return (
        <div className="grid gap-3">
          <p>
            Hold {brief.minCount > 1 ? <strong>{plural(brief.minCount, "token", "tokens")}</strong> : "a token"} of <strong>{what}</strong> (
            {brief.standard === "erc721" ? "ERC-721" : "ERC-1155"}) on {on} in one of your linked wallets
            {brief.tokenIds.length > 0 && (
              <>
                {" "}
                — {brief.tokenIds.length === 1 ? "token id" : "among token ids"} <strong>{brief.tokenIds.join(", ")}</strong>
              </>
            )}
            , then press Check.
          </p>
          <p className="text-sm text-muted-foreground">
            Collection: <ContractAddress address={brief.contract} explorer={brief.explorer} />
          </p>
          <GoButton href={brief.actionUrl} label={hostOf(brief.actionUrl)} />
        </div>
      );
    }
    case "contract_call":
      return (
        <div className="grid gap-3">
          <p>
            From one of your linked wallets, send a transaction on {on} to <ContractAddress address={brief.contract} explorer={brief.explorer} /> calling{" "}
            {brief.functions.length === 1 ? "this function" : "one of these functions"}:
          </p>
          <CodeList items={brief.functions} label="Functions that count" />
          {(brief.minValue || brief.transfer) && (
            <ul className="grid list-disc gap-1 pl-5 text-sm">
              {brief.minValue && (
                <li>
                  sending at least <strong>{brief.minValue}</strong> with it
                </li>
              )}
              {brief.transfer && (
                <li>
                  moving at least{" "}
                  <strong>
                    {brief.transfer.amount} {brief.transfer.symbol}
                  </strong>{" "}
                  (token <ContractAddress address={brief.transfer.token} explorer={brief.explorer} />)
                </li>
              )}
            </ul>
          )}
          <p className="text-sm text-muted-foreground">Then paste the transaction&apos;s hash below, or let us find it.</p>
          <GoButton href={brief.actionUrl} label={hostOf(brief.actionUrl)} />
        </div>
      );
    case "event_emitted":
      return (
        <div className="grid gap-3">
          <p>
            Do what makes <ContractAddress address={brief.contract} explorer={brief.explorer} /> on {on} emit <strong>{brief.eventName}</strong> with one of
            your linked wallets as <code className="font-mono text-sm">{brief.memberArg}</code>
            {brief.minArg && (
              <>
                {" "}
                and <code className="font-mono text-sm">{brief.minArg.name}</code> at least <strong>{brief.minArg.min}</strong>
              </>
            )}
            , then press Check. Nothing to paste: the chain&apos;s events are read for you.
          </p>
          <CodeList items={[brief.event]} label="The event" />
          <GoButton href={brief.actionUrl} label={hostOf(brief.actionUrl)} />
        </div>
      );
    case "wallet_activity":
      return (
        <p>
          Have a linked wallet on {on}
          {brief.minTxCount !== null && (
            <>
              {" "}
              that has sent at least <strong>{plural(brief.minTxCount, "transaction", "transactions")}</strong>
            </>
          )}
          {brief.minTxCount !== null && brief.minAgeDays !== null && " and"}
          {brief.minAgeDays !== null && (
            <>
              {" "}
              first active at least <strong>{plural(brief.minAgeDays, "day", "days")}</strong> ago
            </>
          )}
          , then press Check.
        </p>
      );
  }
}

/** An on-chain task's action waits for a linked wallet. */
export function LinkWalletFirst() {
  return (
    <div className="flex gap-3 rounded-lg border border-amber-500/30 bg-amber-500/10 p-4 text-sm text-amber-800 dark:text-amber-300" role="status">
      <Wallet className="mt-0.5 size-4 shrink-0" aria-hidden />
      <p>
        <Link to={route("settings.profile")} className={linkClass}>
          Link a wallet in Settings › Profile first
        </Link>
        : this task is checked against your linked wallets.
      </p>
    </div>
  );
}

/** What the chain showed, on an approved on-chain task: "Checked on Base at block 18,204,331 — transaction 0xab…cd". */
export function ChainEvidenceLine({ evidence }: { evidence: NonNullable<OnchainState["evidence"]> }) {
  const block = BigInt(evidence.blockNumber).toLocaleString("en");
  const blockText = evidence.explorer ? (
    <ExplorerLink href={`${evidence.explorer}/block/${evidence.blockNumber}`}>block {block}</ExplorerLink>
  ) : (
    `block ${block}`
  );
  const tx = evidence.txHash ? (
    evidence.explorer ? (
      <ExplorerLink href={`${evidence.explorer}/tx/${evidence.txHash}`}>
        <code className="font-mono text-xs">{shortHash(evidence.txHash)}</code>
      </ExplorerLink>
    ) : (
      <code className="font-mono text-xs break-all" title={evidence.txHash}>
        {shortHash(evidence.txHash)}
      </code>
    )
  ) : null;
  return (
    <p className="mt-1 wrap-anywhere">
      {evidence.kind === "holding" || evidence.kind === "history" ? (
        <>
          Checked on {evidence.network}: {evidence.kind === "holding" ? "holding" : "history"} read at {blockText}
        </>
      ) : (
        <>
          Checked on {evidence.network} at {blockText}
          {tx && (
            <>
              {" "}
              — {evidence.kind === "event" ? "event in transaction" : "transaction"} {tx}
            </>
          )}
        </>
      )}
      , wallet <code className="font-mono text-xs">{shortAddress(evidence.wallet)}</code>.
    </p>
  );
}
