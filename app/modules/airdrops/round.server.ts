import { and, asc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { keccak256, maxUint256, stringToHex, type Abi, type Address, type Hex } from "viem";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { airdrop, airdropRound, type AirdropRoundStep } from "#db/schema/airdrops";
import type { Db } from "~/lib/db.server";
import type { ChainRegistry, VaultChain } from "~/modules/chain/chain-registry.server";
import {
  broadcastOperatorTx,
  genesisOf,
  lockOperatorSigner,
  operatorTxOf,
  prepareOperatorCall,
  REVERTED,
  storeOperatorTx,
  type OperatorCall,
  type OperatorSigner,
  type OperatorTx,
  type OperatorWallet,
  type PreparedCall,
} from "~/modules/chain/operator-outbox.server";
import type { Asset } from "~/modules/ledger/assets";
import { ledgerKey } from "~/modules/ledger/keys";
import { airdropEscrow, move, platformAccount, projectTreasury } from "~/modules/ledger/ledger.server";
import { isNodeUnreachable } from "~/modules/chain/node-errors.server";
import { paidState } from "~/modules/withdrawals/withdrawal-chain.server";
import { setAirdropEscrow } from "./airdrop-escrow.server";
import { markRoundsOfPreviousChains } from "./previous-chain.server";
import { describeRoundRevert } from "./round-errors";
import { emitEvent } from "~/modules/events/emit.server";

/**
 * The round job: opens each frozen airdrop's one round on its chain's AirdropDistributor and,
 * when its project asks after the deadline, sweeps what was not claimed back into the vault.
 *
 * A round goes `funding` (the vault pays the total to the operator under the round's own
 * withdrawal id, which it pays at most once) → `approving` (the operator lets the distributor
 * pull its tokens; once per chain) → `opening` (`createRound` with the root, total and deadline)
 * → `open` → `sweeping` → `swept`. Each step is decided by what the chain shows, so a run cut
 * short anywhere is finished by the next: a step's transaction is stored signed before it is
 * broadcast and broadcast again until it lands; a new one is signed only when the stored one can
 * never land (its nonce went to another transaction) and the chain shows the step not done, so a
 * round is never opened twice. The ledger moves with the chain: the escrow leaves for `onchain`
 * when the vault's payment is confirmed, and the swept rest comes back to the project's treasury.
 */

export type RoundSummary = { started: number; advanced: number; sent: number; previousChain: number };

/** A chain where rounds can open: the registry's entry of a chain with a vault, a distributor and an operator key. */
type RoundChain = VaultChain & { operator: OperatorWallet };

type Round = typeof airdropRound.$inferSelect;
/** A round with its airdrop's root (the opening's argument). */
type RoundAt = Round & { root: Hex };
type Run = { db: Db; chain: RoundChain; signer: OperatorSigner; now: Date; summary: RoundSummary };

/** A round is not opened when its claims would close within this long: members could not claim in time. */
export const MIN_OPEN_WINDOW_MS = 60 * 60 * 1000;

export const TOO_LATE = "Claims would have closed before the round could open on chain, so it was not opened: the tokens went back to the project's treasury.";

/** The bytes32 the vault pays an airdrop's round under: the same airdrop always gets the same id. */
export const roundFundingId = (airdropId: string): Hex => keccak256(stringToHex(`questline:airdrop-round:${airdropId}`));

const signerOf = (chain: RoundChain): OperatorSigner => ({
  chainId: chain.id,
  client: chain.client,
  wallet: chain.operator,
  confirmations: chain.confirmations,
});

/** The outbox's key for a step's attempt (the round counts its step's attempts): each is signed at most once. */
const roundIntent = (round: Pick<Round, "airdropId" | "step">, attempt: number) => `airdrop-round:${round.airdropId}:${round.step}:${attempt}`;

/** The registry's chains where rounds can open. */
export function roundChainsOf(chains: Pick<ChainRegistry, "vaultChains">): Map<number, RoundChain> {
  return new Map(chains.vaultChains().flatMap((chain) => (chain.operator ? [[chain.id, { ...chain, operator: chain.operator }] as const] : [])));
}

/**
 * One run over every round that has work: rounds made on an earlier run of their chain are set
 * aside, new rounds are made for frozen airdrops, then each step advances. The chain is read only
 * for rounds that have something on it. Receipts are not followed here: the chain's outbox
 * follower job does that, and a step's transaction is judged by the state it left.
 */
export async function processAirdropRounds({
  db,
  chains,
  now = new Date(),
  onError = () => {},
}: {
  db: Db;
  chains: Map<number, RoundChain>;
  now?: Date;
  /** A round whose step threw (it is left as it was, for the next run). */
  onError?: (airdropId: string, error: unknown) => void;
}): Promise<RoundSummary> {
  const summary: RoundSummary = { started: 0, advanced: 0, sent: 0, previousChain: 0 };
  summary.previousChain = await markRoundsOfPreviousChains({ db, chains, now });
  const signers = new Map([...chains].map(([id, chain]) => [id, signerOf(chain)]));
  summary.started = await startRounds(db, chains, now);
  const rounds = await db
    .select()
    .from(airdropRound)
    .where(inArray(airdropRound.step, ["funding", "approving", "opening", "sweeping"]))
    .orderBy(asc(airdropRound.createdAt));
  for (const round of rounds) {
    const chain = chains.get(round.chainId);
    if (!chain) continue;
    try {
      await advance({ db, chain, signer: signers.get(chain.id)!, now, summary }, round);
    } catch (error) {
      onError(round.airdropId, error);
    }
  }
  return summary;
}

/**
 * A round for every frozen airdrop with a root and no round yet, on a chain where rounds can
 * open. An airdrop whose claims would close too soon gets a `failed` round instead, and its
 * escrow goes back to the treasury.
 */
async function startRounds(db: Db, chains: Map<number, RoundChain>, now: Date): Promise<number> {
  const due = await db
    .select({ id: airdrop.id, asset: airdrop.asset })
    .from(airdrop)
    .leftJoin(airdropRound, eq(airdropRound.airdropId, airdrop.id))
    .where(and(eq(airdrop.status, "frozen"), isNotNull(airdrop.root), sql`${airdrop.escrowed} > 0`, isNull(airdropRound.airdropId)));
  let started = 0;
  for (const { id, asset } of due) {
    const chain = chains.get(Number(asset.split(":")[1]));
    if (!chain) continue;
    // The chain the round is made on; a node that does not answer leaves it to the next run.
    const genesisHash = await genesisOf(chain.client).catch((error: unknown) => {
      if (isNodeUnreachable(error)) return null;
      throw error;
    });
    if (!genesisHash) continue;
    const opened = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(airdrop)
        .where(and(eq(airdrop.id, id), eq(airdrop.status, "frozen")))
        .for("update");
      if (!row?.root || row.escrowed <= 0n) return false;
      const tooLate = row.claimDeadline.getTime() - now.getTime() < MIN_OPEN_WINDOW_MS;
      const inserted = await tx
        .insert(airdropRound)
        .values({
          airdropId: id,
          chainId: chain.id,
          genesisHash,
          distributor: chain.contracts.AirdropDistributor,
          fundingId: roundFundingId(id),
          total: row.escrowed,
          deadline: Math.floor(row.claimDeadline.getTime() / 1000),
          step: tooLate ? "failed" : "funding",
          failure: tooLate ? TOO_LATE : null,
        })
        .onConflictDoNothing()
        .returning({ id: airdropRound.airdropId });
      if (inserted.length === 0) return false;
      if (tooLate) await setAirdropEscrow(tx, { row, target: 0n, now });
      return !tooLate;
    });
    if (opened) started += 1;
  }
  return started;
}

type Decided = { state: "done"; facts?: { roundId: bigint; txHash: Hex } | { swept: bigint } } | { state: "pending" | "no" };

/** What one step does on chain, how the chain shows it done, and what is recorded when it is. */
type Step = {
  call: (chain: RoundChain, round: RoundAt) => { address: Address; abi: Abi; functionName: string; args: readonly unknown[] };
  decide: (chain: RoundChain, round: RoundAt) => Promise<Decided>;
  finish: (tx: Db, round: Round, decided: Decided, now: Date) => Promise<AirdropRoundStep>;
};

const STEPS: Partial<Record<AirdropRoundStep, Step>> = {
  funding: {
    call: (chain, round) => ({
      address: chain.vault,
      abi: depositVaultAbi,
      functionName: "withdraw",
      args: [round.fundingId as Hex, chain.operator.account.address, round.total],
    }),
    decide: async (chain, round) => {
      const paid = await paidState(chain, round.fundingId as Hex);
      return { state: paid === "confirmed" ? "done" : paid };
    },
    finish: async (tx, round, _decided, now) => {
      const [row] = await tx.select().from(airdrop).where(eq(airdrop.id, round.airdropId)).for("update");
      await move({
        db: tx,
        key: ledgerKey.airdropFunded(round.airdropId),
        kind: "airdrop_round_funded",
        reference: round.airdropId,
        asset: row!.asset as Asset,
        amount: round.total,
        from: airdropEscrow(round.airdropId),
        to: platformAccount("onchain"),
      });
      await tx.update(airdrop).set({ escrowed: 0n, updatedAt: now }).where(eq(airdrop.id, round.airdropId));
      return "approving";
    },
  },
  approving: {
    // Once per chain: the operator lets its own distributor pull what each opening needs.
    call: (chain) => ({
      address: chain.contracts.QuestToken,
      abi: questTokenAbi,
      functionName: "approve",
      args: [chain.contracts.AirdropDistributor, maxUint256],
    }),
    decide: (chain, round) =>
      atDepth(chain, (blockNumber) =>
        chain.client
          .readContract({
            address: chain.contracts.QuestToken,
            abi: questTokenAbi,
            functionName: "allowance",
            args: [chain.operator.account.address, chain.contracts.AirdropDistributor],
            blockNumber,
          })
          .then((allowance) => allowance >= round.total),
      ),
    finish: async () => "opening",
  },
  opening: {
    call: (chain, round) => ({
      address: chain.contracts.AirdropDistributor,
      abi: airdropDistributorAbi,
      functionName: "createRound",
      args: [round.root, round.total, BigInt(round.deadline)],
    }),
    decide: async (chain, round) => {
      if (round.fromBlock === null) return { state: "no" };
      const logs = await chain.client.getContractEvents({
        address: chain.contracts.AirdropDistributor,
        abi: airdropDistributorAbi,
        eventName: "RoundCreated",
        fromBlock: BigInt(round.fromBlock),
        strict: true,
      });
      const root = round.root.toLowerCase();
      const ours = logs.find(
        (log) => log.args.merkleRoot.toLowerCase() === root && log.args.total === round.total && log.args.deadline === BigInt(round.deadline),
      );
      if (!ours) return { state: "no" };
      const tip = await chain.client.getBlockNumber();
      if (tip - ours.blockNumber + 1n < BigInt(chain.confirmations)) return { state: "pending" };
      return { state: "done", facts: { roundId: ours.args.roundId, txHash: ours.transactionHash } };
    },
    finish: async (tx, round, decided, now) => {
      const facts = decided.state === "done" && decided.facts && "roundId" in decided.facts ? decided.facts : null;
      if (!facts) throw new Error(`The opening of airdrop ${round.airdropId}'s round was decided without its event`);
      await tx
        .update(airdropRound)
        .set({ roundId: Number(facts.roundId), openTxHash: facts.txHash, openedAt: now })
        .where(eq(airdropRound.airdropId, round.airdropId));
      const [row] = await tx
        .select({ projectId: airdrop.projectId, name: airdrop.name, claimDeadline: airdrop.claimDeadline })
        .from(airdrop)
        .where(eq(airdrop.id, round.airdropId));
      if (row) {
        await emitEvent(tx, {
          type: "airdrop.claimable",
          key: `airdrop.claimable:${round.airdropId}`,
          projectId: row.projectId,
          data: { airdropId: round.airdropId, title: row.name.slice(0, 300), claimDeadline: row.claimDeadline.toISOString() },
        });
      }
      return "open";
    },
  },
  sweeping: {
    call: (chain, round) => ({
      address: chain.contracts.AirdropDistributor,
      abi: airdropDistributorAbi,
      functionName: "sweep",
      args: [BigInt(round.roundId!), chain.vault],
    }),
    decide: async (chain, round) => {
      const read = (blockNumber: bigint) =>
        chain.client.readContract({
          address: chain.contracts.AirdropDistributor,
          abi: airdropDistributorAbi,
          functionName: "round",
          args: [BigInt(round.roundId!)],
          blockNumber,
        });
      const tip = await chain.client.getBlockNumber();
      if (!(await read(tip)).swept) return { state: "no" };
      const deep = await read(tip - BigInt(Math.max(chain.confirmations - 1, 0)));
      return deep.swept ? { state: "done", facts: { swept: deep.total - deep.claimed } } : { state: "pending" };
    },
    finish: async (tx, round, decided, now) => {
      const swept = decided.state === "done" && decided.facts && "swept" in decided.facts ? decided.facts.swept : 0n;
      const [row] = await tx.select().from(airdrop).where(eq(airdrop.id, round.airdropId));
      // The rest went back into the vault: the project's treasury holds it again.
      if (swept > 0n) {
        await move({
          db: tx,
          key: ledgerKey.airdropSwept(round.airdropId),
          kind: "airdrop_round_swept",
          reference: round.airdropId,
          asset: row!.asset as Asset,
          amount: swept,
          from: platformAccount("onchain"),
          to: projectTreasury(row!.projectId),
        });
      }
      await tx.update(airdropRound).set({ swept, sweptAt: now, sweepTxHash: round.txHash }).where(eq(airdropRound.airdropId, round.airdropId));
      return "swept";
    },
  },
};

/** "done" when `check` holds at the chain's confirmation depth, "pending" when only at the tip. */
async function atDepth(chain: RoundChain, check: (blockNumber: bigint) => Promise<boolean>): Promise<Decided> {
  const tip = await chain.client.getBlockNumber();
  if (!(await check(tip))) return { state: "no" };
  const deep = tip - BigInt(Math.max(chain.confirmations - 1, 0));
  return { state: (await check(deep)) ? "done" : "pending" };
}

/**
 * One step of one round: done on chain → recorded and on to the next; in flight → broadcast
 * again; a stored transaction that can never land → dropped; nothing in flight → simulated,
 * signed, stored and broadcast.
 */
async function advance(run: Run, stored: Round) {
  let round = await withRoot(run.db, stored);
  for (;;) {
    const step = STEPS[round.step];
    if (!step) return;
    const decided = await step.decide(run.chain, round);
    if (decided.state === "pending") return;
    if (decided.state === "done") {
      const next = await recordDone(run, round, step, decided);
      if (!next) return;
      run.summary.advanced += 1;
      round = next;
      continue;
    }
    if (round.txHash && (await stillInFlight(run, round))) return;
    await signAndSend(run, round, step);
    return;
  }
}

async function withRoot(db: Db, round: Round): Promise<RoundAt> {
  const [row] = await db.select({ root: airdrop.root }).from(airdrop).where(eq(airdrop.id, round.airdropId));
  return { ...round, root: row!.root! as Hex };
}

/** Records a step done (under the round's lock, once) and returns the round at its next step. */
async function recordDone(run: Run, round: RoundAt, step: Step, decided: Decided): Promise<RoundAt | null> {
  return run.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(airdropRound).where(eq(airdropRound.airdropId, round.airdropId)).for("update");
    if (!locked || locked.step !== round.step) return null;
    const next = await step.finish(tx, locked, decided, run.now);
    const [updated] = await tx
      .update(airdropRound)
      .set({ step: next, txHash: null, nonce: null, attempt: 0, fromBlock: null, sentAt: null, failure: null, updatedAt: run.now })
      .where(eq(airdropRound.airdropId, round.airdropId))
      .returning();
    return { ...updated!, root: round.root };
  });
}

/**
 * Whether the step's stored transaction may still land, as its outbox follows it: stored (broadcast
 * now: a run cut short, or a node that did not take it), on the network or mined. One that can
 * never land (its nonce taken, or refused on chain) is dropped, with the reason, so a new one is
 * signed.
 */
async function stillInFlight(run: Run, round: Round): Promise<boolean> {
  const sent = round.attempt > 0 ? await operatorTxOf(run.db, roundIntent(round, round.attempt)) : undefined;
  if (sent?.state === "stored") {
    await broadcast(run, sent);
    return true;
  }
  if (sent && sent.state !== "replaced" && sent.state !== "failed") {
    if (sent.txHash !== round.txHash)
      await run.db
        .update(airdropRound)
        .set({ txHash: sent.txHash, updatedAt: run.now })
        .where(and(eq(airdropRound.airdropId, round.airdropId), eq(airdropRound.txHash, round.txHash!)));
    return true;
  }
  const failure = sent?.failure === REVERTED ? "The round's last transaction was refused on chain; it is being sent again." : null;
  await run.db
    .update(airdropRound)
    .set({ txHash: null, nonce: null, sentAt: null, failure, updatedAt: run.now })
    .where(and(eq(airdropRound.airdropId, round.airdropId), eq(airdropRound.txHash, round.txHash!)));
  return false;
}

/**
 * Simulates the step's call (a refusal is recorded in words, nothing signed) and prepares it with no
 * database transaction open, then signs it into the outbox and records it in one short transaction
 * that asks no node anything, then broadcasts it.
 */
async function signAndSend(run: Run, round: RoundAt, step: Step) {
  let prepared: PreparedCall;
  try {
    prepared = await prepareOperatorCall(run.signer, step.call(run.chain, round) as OperatorCall);
  } catch (error) {
    if (isNodeUnreachable(error)) throw error;
    await run.db
      .update(airdropRound)
      .set({ failure: describeRoundRevert(error), updatedAt: run.now })
      .where(and(eq(airdropRound.airdropId, round.airdropId), eq(airdropRound.step, round.step), isNull(airdropRound.txHash)));
    return;
  }
  const sent = await run.db.transaction(async (tx) => {
    await lockOperatorSigner(tx, run.chain.id);
    const [locked] = await tx
      .select()
      .from(airdropRound)
      .where(and(eq(airdropRound.airdropId, round.airdropId), eq(airdropRound.step, round.step), isNull(airdropRound.txHash)))
      .for("update");
    if (!locked) return null;
    const attempt = locked.attempt + 1;
    const stored = await storeOperatorTx(tx, run.signer, { intentKey: roundIntent(locked, attempt), prepared });
    await tx
      .update(airdropRound)
      .set({ txHash: stored.txHash, nonce: stored.nonce, attempt, fromBlock: Number(prepared.block), sentAt: null, failure: null, updatedAt: run.now })
      .where(eq(airdropRound.airdropId, round.airdropId));
    return stored;
  });
  if (!sent) return;
  await broadcast(run, sent);
  run.summary.sent += 1;
}

/** Hands a stored transaction to the node; taken → the round records when it went out. A node that does not answer leaves it to the next run. */
async function broadcast(run: Run, sent: OperatorTx) {
  if ((await broadcastOperatorTx(run.db, run.chain.client, sent, run.now)) !== "accepted") return;
  await run.db.update(airdropRound).set({ sentAt: run.now }).where(eq(airdropRound.txHash, sent.txHash));
}

export type SweepRefusal = "not_open" | "still_open";

/**
 * A project's owner or admin asks for the round's rest back (the caller has checked
 * `rewards.manage`): only an open round, and only once the chain's clock has passed its deadline
 * (`chainTime`, the latest block's timestamp: the contract decides by it). The job sends the sweep.
 */
export async function requestSweep({
  db,
  airdropId,
  actorId,
  chainTime,
  now = new Date(),
}: {
  db: Db;
  airdropId: string;
  actorId: string;
  chainTime: bigint;
  now?: Date;
}): Promise<{ ok: true } | { ok: false; reason: SweepRefusal }> {
  return db.transaction(async (tx) => {
    const [round] = await tx.select().from(airdropRound).where(eq(airdropRound.airdropId, airdropId)).for("update");
    if (!round || round.step !== "open") return { ok: false, reason: "not_open" };
    if (chainTime < BigInt(round.deadline)) return { ok: false, reason: "still_open" };
    await tx
      .update(airdropRound)
      .set({ step: "sweeping", sweepRequestedAt: now, sweepRequestedBy: actorId, failure: null, updatedAt: now })
      .where(eq(airdropRound.airdropId, airdropId));
    return { ok: true };
  });
}
