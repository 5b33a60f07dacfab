// A server process for the SIGKILL fault tests: opens the database named by CHILD_DATABASE_URL (a
// PostgreSQL database) or CHILD_PGLITE_DIR (a PGlite data folder), runs the withdrawal job once
// against the node at CHILD_RPC_URL (the vault CHILD_VAULT on chain 31337) — or, given CHILD_CHAINS,
// once for each chain it lists, at the same time, as the server's per-chain jobs run — and exits.
// The test kills it with SIGKILL mid-send.
import { createPublicClient, createWalletClient, getAddress, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { DEV_OPERATOR_PRIVATE_KEY } from "../../contracts/dev-accounts.ts";
import { depositVaultAbi } from "../../contracts/generated/deposit-vault.ts";
import { openDatabase } from "../../app/lib/db.server.ts";
import { LOCAL_CHAIN_ID } from "../../app/lib/local-chain-id.ts";
import { processWithdrawals } from "../../app/modules/withdrawals/withdrawal-job.server.ts";
import { localChainOf } from "../../app/wallet/chain-config.ts";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const node = z.object({ chainId: z.number().int().positive(), rpcUrl: z.url(), vault: address });
const env = z
  .object({
    CHILD_DATABASE_URL: z.string().optional(),
    CHILD_PGLITE_DIR: z.string().optional(),
    CHILD_RPC_URL: z.url().optional(),
    CHILD_VAULT: address.optional(),
    CHILD_CHAINS: z
      .string()
      .transform((text) => z.array(node).min(1).parse(JSON.parse(text)))
      .optional(),
  })
  .parse(process.env);
const nodes = env.CHILD_CHAINS ?? [node.parse({ chainId: LOCAL_CHAIN_ID, rpcUrl: env.CHILD_RPC_URL, vault: env.CHILD_VAULT })];

const database = await openDatabase({ databaseUrl: env.CHILD_DATABASE_URL, dataDir: env.CHILD_PGLITE_DIR ?? null });
const chainOf = async ({ chainId, rpcUrl, vault }: z.infer<typeof node>) => {
  const transport = http(rpcUrl, { retryCount: 0, timeout: 60_000 });
  const chain = localChainOf(chainId);
  const client = createPublicClient({ chain, transport });
  // QUEST, the vault's own token: what these tests withdraw.
  const quest = await client.readContract({ address: getAddress(vault), abi: depositVaultAbi, functionName: "token" });
  return {
    client,
    operator: createWalletClient({ chain, transport, account: privateKeyToAccount(DEV_OPERATOR_PRIVATE_KEY) }),
    vault: getAddress(vault),
    tokens: [{ symbol: "QUEST", address: quest, decimals: 18 }],
    confirmations: 1,
  };
};
console.log("job starting");
const summaries = await Promise.all(nodes.map(async (one) => processWithdrawals({ db: database.db, chains: new Map([[one.chainId, await chainOf(one)]]) })));
console.log("job done", JSON.stringify(summaries.length === 1 ? summaries[0] : summaries));
await database.close();
