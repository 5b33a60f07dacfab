import { Gift } from "lucide-react";
import { useRevalidator } from "react-router";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import { TxProgress } from "~/components/chain/tx-progress";
import { useContractTx } from "~/components/chain/use-contract-tx";
import { WalletGate } from "~/components/chain/wallet-gate";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { formatAmount } from "~/lib/token-amounts";
import { isBusy } from "~/modules/chain/tx-machine";
import { useWallet } from "~/wallet/wallet-provider";

/** What the page knows of the member's claimable share (amounts as decimal strings: loader data is JSON). */
export type ClaimableShare = {
  airdropId: string;
  chainId: number;
  distributor: `0x${string}`;
  roundId: number;
  leaf: number;
  account: `0x${string}`;
  amount: string;
  proof: `0x${string}`[];
  symbol: string;
  coin: string;
};

/**
 * The Claim button: sends `claim(roundId, index, account, amount, proof)` through the connected
 * wallet on the airdrop's network (simulated first: a refusal is told in words before the wallet
 * is asked), from the share's own address. The claim is marked once the server has read its
 * `Claimed` event; until then the transaction's progress shows. A refusal that a retry cannot
 * change (the share claimed already, checked on chain when the wallet gives no reason) takes the
 * button away.
 */
export function AirdropClaim({ share }: { share: ClaimableShare }) {
  const wallet = useWallet();
  const revalidator = useRevalidator();
  const tx = useContractTx({
    storageKey: `questline.tx.airdrop-claim.${share.airdropId}`,
    onSettled: (confirmed, label) => {
      if (confirmed) toast.success(`${label}: confirmed`);
      void revalidator.revalidate();
    },
  });
  const amount = `${formatAmount(BigInt(share.amount))} ${share.symbol}`;
  // Refused for good (claimed already, claims closed, not in the allocation): the message stays, the button goes.
  const refused = tx.state.status === "failed" && tx.state.final === true;
  const elsewhere = wallet.address !== null && wallet.address.toLowerCase() !== share.account.toLowerCase();
  const claim = () =>
    void tx.send(
      {
        chainId: share.chainId,
        address: share.distributor,
        abi: airdropDistributorAbi,
        functionName: "claim",
        args: [BigInt(share.roundId), BigInt(share.leaf), share.account, BigInt(share.amount), share.proof],
        context: { token: share.symbol, coin: share.coin },
      },
      `Claim ${amount}`,
    );
  return (
    <div className="grid gap-3">
      <WalletGate chainId={share.chainId} action="claim your tokens">
        {refused ? null : elsewhere ? (
          <p role="alert" className="text-sm">
            Your wallet is connected with <span className="font-mono break-all">{wallet.address}</span>, not the address your share was allocated to (
            <span className="font-mono break-all">{share.account}</span>). Switch to that account in your wallet to claim.
          </p>
        ) : (
          <Button variant="brand" className="justify-self-start" pending={isBusy(tx.state)} onClick={claim}>
            <Gift aria-hidden /> Claim {amount}
          </Button>
        )}
      </WalletGate>
      <TxProgress state={tx.state} label={tx.label} onReset={tx.reset} />
    </div>
  );
}
