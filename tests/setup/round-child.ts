// A server process for the round's SIGKILL fault test: opens the database named by
// CHILD_DATABASE_URL (PostgreSQL) or CHILD_PGLITE_DIR (a PGlite data folder), runs the airdrop
// round job once at CHILD_NOW against the node at CHILD_RPC_URL with the contracts in
// CHILD_CONTRACTS, and exits. The test kills it with SIGKILL mid-send.
import { z } from "zod";
import { openDatabase } from "../../app/lib/db.server.ts";
import { processAirdropRounds, roundChainsOf } from "../../app/modules/airdrops/round.server.ts";
import { localRegistry } from "./local-registry.ts";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as z.ZodType<`0x${string}`>;
const contracts = z.object({ QuestToken: address, TokenSale: address, DepositVault: address, AirdropDistributor: address });
const env = z
  .object({
    CHILD_DATABASE_URL: z.string().optional(),
    CHILD_PGLITE_DIR: z.string().optional(),
    CHILD_RPC_URL: z.url(),
    CHILD_NOW: z.iso.datetime().transform((value) => new Date(value)),
    CHILD_CONTRACTS: z.string().transform((value) => contracts.parse(JSON.parse(value))),
  })
  .parse(process.env);

const database = await openDatabase({ databaseUrl: env.CHILD_DATABASE_URL, dataDir: env.CHILD_PGLITE_DIR ?? null });
const chains = roundChainsOf(localRegistry({ url: env.CHILD_RPC_URL, contracts: env.CHILD_CONTRACTS }));
console.log("job starting");
const summary = await processAirdropRounds({ db: database.db, chains, now: env.CHILD_NOW });
console.log("job done", JSON.stringify(summary));
await database.close();
