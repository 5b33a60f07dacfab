// A server process for the SIGKILL fault test: opens the database named by CHILD_DATABASE_URL (a
// PostgreSQL database) or CHILD_PGLITE_DIR (a PGlite data folder), runs the withdrawal job once
// against the node at CHILD_RPC_URL and exits. The test kills it with SIGKILL mid-send.
import { createPublicClient, createWalletClient, getAddress, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { z } from "zod";
import { DEV_OPERATOR_PRIVATE_KEY } from "../../contracts/dev-accounts.ts";
import { openDatabase } from "../../app/lib/db.server.ts";
import { processWithdrawals } from "../../app/modules/withdrawals/withdrawal-job.server.ts";

const env = z
  .object({
    CHILD_DATABASE_URL: z.string().optional(),
    CHILD_PGLITE_DIR: z.string().optional(),
    CHILD_RPC_URL: z.url(),
    CHILD_VAULT: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  })
  .parse(process.env);

const database = await openDatabase({ databaseUrl: env.CHILD_DATABASE_URL, dataDir: env.CHILD_PGLITE_DIR ?? null });
const transport = http(env.CHILD_RPC_URL, { retryCount: 0, timeout: 60_000 });
const chain = {
  client: createPublicClient({ chain: anvil, transport }),
  operator: createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_OPERATOR_PRIVATE_KEY) }),
  vault: getAddress(env.CHILD_VAULT),
  confirmations: 1,
};
console.log("job starting");
const summary = await processWithdrawals({ db: database.db, chains: new Map([[31337, chain]]) });
console.log("job done", JSON.stringify(summary));
await database.close();
