import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Select } from "~/components/ui/select";
import { useNetworkSwitch } from "~/components/wallet/switch-network-button";
import { useRootChains } from "~/hooks/root-data";
import { CHAIN_NAMES } from "~/wallet/chains";
import { useWallet } from "~/wallet/wallet-provider";

/**
 * Moves the connected wallet to another network members can sign in on (the server's list of
 * chains): pick it, then "Switch network". `first` puts the networks a screen works on at the top.
 */
export function NetworkPicker({ first = [] }: { first?: number[] }) {
  const wallet = useWallet();
  const chains = useRootChains();
  const id = useId();
  const ids = [...new Set([...first, ...(chains?.chainIds ?? [])])];
  const [picked, setPicked] = useState<number | null>(null);
  const { switching, switchTo } = useNetworkSwitch();
  const target = picked ?? wallet.chainId ?? ids[0] ?? null;
  if (ids.length === 0 || target === null) return null;
  const name = (chainId: number) => CHAIN_NAMES[chainId] ?? `Chain ${chainId}`;

  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="grid gap-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          Network
        </label>
        <Select id={id} className="w-56 max-w-full" value={String(target)} onChange={(event) => setPicked(Number(event.target.value))}>
          {ids.map((chainId) => (
            <option key={chainId} value={chainId}>
              {name(chainId)}
            </option>
          ))}
        </Select>
      </div>
      <Button type="button" variant="outline" pending={switching} disabled={!wallet.address || wallet.chainId === target} onClick={() => void switchTo(target)}>
        Switch network
      </Button>
    </div>
  );
}
