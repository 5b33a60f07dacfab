import { Boxes, Image as ImageIcon } from "lucide-react";
import { useState, type FormEvent } from "react";
import { demoCollectionAbi } from "#contracts/generated/demo-collection";
import { demoItemsAbi } from "#contracts/generated/demo-items";
import { TxProgress } from "~/components/chain/tx-progress";
import { WalletGate } from "~/components/chain/wallet-gate";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { DEMO_ITEM_IDS, DEMO_ITEMS_PER_MINT, type DemoChainReading } from "~/modules/chain/demo-dapp";
import { isBusy } from "~/modules/chain/tx-machine";
import { useDemoTx } from "./use-demo-tx";

type DemoChain = Extract<DemoChainReading, { ok: true }>;

/** "Mint an Explorer": DemoCollection.mint(), one ERC-721 token to the connected wallet, free. */
export function MintExplorerCard({ chain }: { chain: DemoChain }) {
  const tx = useDemoTx(`questline.tx.demo-explorer.${chain.chainId}`);
  const mint = () =>
    void tx.send(
      {
        chainId: chain.chainId,
        address: chain.collection,
        abi: demoCollectionAbi,
        functionName: "mint",
        args: [],
        context: { token: "QLX", coin: chain.coin },
      },
      "Mint an Explorer",
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Mint an Explorer</CardTitle>
        <CardDescription>An ERC-721 token of the Questline Explorers collection (QLX), free: you pay only the network fee.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <WalletGate chainId={chain.chainId} action="mint an Explorer">
          <Button type="button" variant="brand" className="justify-self-start" pending={isBusy(tx.state)} onClick={mint}>
            <ImageIcon aria-hidden /> Mint an Explorer
          </Button>
        </WalletGate>
        <TxProgress state={tx.state} label={tx.label} onReset={tx.reset} />
      </CardContent>
    </Card>
  );
}

/** "Mint items": DemoItems.mint(id, amount), 1 to 10 of item 1, 2 or 3 (ERC-1155), free. */
export function MintItemsCard({ chain }: { chain: DemoChain }) {
  const tx = useDemoTx(`questline.tx.demo-items.${chain.chainId}`);
  const [item, setItem] = useState("1");
  const [amount, setAmount] = useState("1");
  const [error, setError] = useState<string | undefined>();
  const idField = `demo-item-${chain.chainId}`;
  const amountField = `demo-item-amount-${chain.chainId}`;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const count = /^\d+$/.test(amount.trim()) ? Number(amount.trim()) : NaN;
    if (!(count >= 1 && count <= DEMO_ITEMS_PER_MINT)) return setError(`Enter a whole number from 1 to ${DEMO_ITEMS_PER_MINT}.`);
    setError(undefined);
    void tx.send(
      {
        chainId: chain.chainId,
        address: chain.items,
        abi: demoItemsAbi,
        functionName: "mint",
        args: [BigInt(item), BigInt(count)],
        context: { token: "Questline Items", coin: chain.coin },
      },
      `Mint ${count} of item ${item}`,
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Mint items</CardTitle>
        <CardDescription>ERC-1155 Questline Items: item 1, 2 or 3, up to {DEMO_ITEMS_PER_MINT} at a time, free: you pay only the network fee.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <WalletGate chainId={chain.chainId} action="mint items">
          <form noValidate onSubmit={submit} className="grid gap-4">
            <div className="grid grid-cols-2 gap-3">
              <Field id={idField} label="Item">
                <Select id={idField} name={idField} value={item} onChange={(event) => setItem(event.target.value)}>
                  {DEMO_ITEM_IDS.map((id) => (
                    <option key={id} value={id}>
                      Item {id}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field id={amountField} label="Amount" error={error} hint={`1 to ${DEMO_ITEMS_PER_MINT}`}>
                <Input
                  {...fieldProps(amountField, error)}
                  inputMode="numeric"
                  autoComplete="off"
                  value={amount}
                  onChange={(event) => {
                    setAmount(event.target.value);
                    setError(undefined);
                  }}
                />
              </Field>
            </div>
            <Button type="submit" variant="brand" className="justify-self-start" pending={isBusy(tx.state)}>
              <Boxes aria-hidden /> Mint items
            </Button>
          </form>
        </WalletGate>
        <TxProgress state={tx.state} label={tx.label} onReset={tx.reset} />
      </CardContent>
    </Card>
  );
}
