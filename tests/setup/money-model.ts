// The money property tests' world, model, commands and checks (app/modules/withdrawals/money*.test.ts):
// random batches of on-chain deposits, scans, mined blocks, treasury credits, withdrawal requests
// (request keys reused), withdrawal job runs, retries, cancels, vault pauses and operator pauses,
// each batch run concurrently, on two local chains at once (31337 and 31338, tests/setup/two-chains.ts):
// each command that touches a chain picks one, and a member holds a balance on each. After every
// batch the ledger, the deposit and withdrawal rows and each chain must agree; at the end of a run,
// driven to quiescence, every deposit is credited once in its chain's asset and every withdrawal not
// cancelled is paid once, by its own chain's vault, and each vault holds what the ledger says it
// does for that chain. How the withdrawal job and the deposit scan run (in this process, or through
// the job engine in worker processes) is the test's `Runner`.

import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { BaseError, ContractFunctionRevertedError, getAddress, keccak256, parseEther, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { deposit, withdrawal } from "#db/schema/ledger";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { rowsOf, type Database, type Db } from "~/lib/db.server";
import { failureMessage } from "~/lib/result";
import { depositRefOf } from "~/modules/deposits/deposit-refs.server";
import { questAsset, type Asset } from "~/modules/ledger/assets";
import { balanceOf, checkLedger, credit, platformBalance, type PlatformAccount } from "~/modules/ledger/ledger.server";
import type { WithdrawalChains } from "~/modules/withdrawals/withdrawal-chain.server";
import { setWithdrawalsPaused } from "~/modules/withdrawals/withdrawal-pause.server";
import { cancelWithdrawal, requestWithdrawal, retryWithdrawal, withdrawalLimits } from "~/modules/withdrawals/withdrawals.server";
import { CHAIN_IDS, startTwoChains, type TwoChains } from "./two-chains";
import { form, fundedMember, rpc, type VaultOnChain } from "./withdrawal-chain";

/** The chains a run uses, by the index a command names (`chain`): 31337 and 31338. */
export { CHAIN_IDS };
/** Deposits and payments need two blocks, so `pending` deposits and `sent` withdrawals occur. */
export const CONFIRMATIONS = 2;
const FEE = parseEther("0.5");
const limits = withdrawalLimits({ WITHDRAWAL_MIN: "1", WITHDRAWAL_DAILY_LIMIT: "150", WITHDRAWAL_FEE: "0.5" });
/** Each member's linked wallet is an anvil dev account (2, 3, 4) holding tokens; it deposits and is paid. */
const MEMBER_KEYS = [DEV_PRIVATE_KEYS[2], DEV_PRIVATE_KEYS[3], DEV_PRIVATE_KEYS[4]];
/** What each member is credited from the treasury on each chain before a run's first batch. */
const STARTING = parseEther("40");
const CLEAN = { unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 };

/** `chain`: the index in CHAIN_IDS of the chain a command acts on (the first when absent). */
export type Command =
  | { op: "deposit"; member: number; amount: bigint; stranger: boolean; chain?: number }
  /** `scanners` scanner processes at once. */
  | { op: "scan"; scanners: number; chain?: number }
  | { op: "mine"; blocks: number; chain?: number }
  | { op: "credit"; grant: number }
  /** A request key is the member's, whichever chain: reused on the other chain it still gives the first withdrawal back. */
  | { op: "withdraw"; member: number; amount: bigint; key: number; chain?: number }
  /** `workers` job processes at once, for the chain's withdrawals. */
  | { op: "job"; workers: number; chain?: number }
  | { op: "retry" | "cancel"; pick: number }
  | { op: "pauseVault" | "unpauseVault"; chain?: number }
  /** The operators' pause holds every chain's withdrawals. */
  | { op: "operatorPause" | "operatorResume" }
  /** A worker process killed (SIGKILL) in the middle of a chain's withdrawal job: only where the runner has workers. */
  | { op: "kill"; chain?: number };
/** A treasury credit to a member on a chain (index in CHAIN_IDS; the first when absent). */
export type Grant = { member: number; amount: bigint; chain?: number };
type Member = { userId: string; key: Hex; wallet: Address; ref: Hex };

/** One run's world and what the test itself knows happened (the model). */
export type Run = {
  db: Db;
  members: Member[];
  grants: Grant[];
  /** Grants posted (by index). */
  granted: Set<number>;
  /** `member:key` → the withdrawal its first successful request created. */
  requests: Map<string, string>;
  /** The run's withdrawals and whose they are, in request order. */
  withdrawals: { id: string; member: number }[];
  /** Each chain's (by index) deposits mined with each member's reference. */
  deposited: bigint[][];
  /** Job steps that threw (the job reports them through onError). */
  unexpected: string[];
};

/** How the withdrawal job and the deposit scan are run, each call returning once every run it started has finished. */
export type Runner = {
  /** `workers` withdrawal job runs at once for the chain `chainId`. */
  job: (run: Run, chainId: number, workers: number) => Promise<void>;
  /** `scanners` deposit scans at once of the chain `chainId`. */
  scan: (run: Run, chainId: number, scanners: number) => Promise<void>;
  /** Kills a worker process mid-job of the chain `chainId` and starts another; returns how it came out. */
  kill?: (run: Run, chainId: number) => Promise<string>;
};

/**
 * Two fresh anvils (31337 and 31338) with Questline's contracts, a funded vault on each and the
 * members' wallets approved on both; runs start from their snapshots. `chains`: each chain as the
 * withdrawal job reads it, by chain id.
 */
export async function moneyWorld() {
  const two: TwoChains = await startTwoChains();
  const vaults = new Map<number, VaultOnChain>(two.chains.map((chain) => [chain.chainId, chain.vault]));
  const chains: WithdrawalChains = new Map(two.chains.map((chain) => [chain.chainId, chain.vault.chain(undefined, { confirmations: CONFIRMATIONS })]));
  for (const { vault } of two.chains) for (const key of MEMBER_KEYS) await vault.approveVault(key, parseEther("1000000"));
  return { two, vaults, chains, snapshots: await two.snapshot() };
}
export type MoneyWorld = Awaited<ReturnType<typeof moneyWorld>>;

/** The index in CHAIN_IDS of the chain a command (or grant) names, the first chain's when it names none. */
/** The commands that act on one chain (the first where they name none). */
const CHAIN_COMMANDS = new Set(["deposit", "withdraw", "scan", "mine", "job", "kill"]);
const chainIndexOf = (item: { chain?: number }): number => (item.chain ?? 0) % CHAIN_IDS.length;
/** The id of the chain a command (or grant) names. */
export const chainIdOf = (item: { chain?: number }): number => CHAIN_IDS[chainIndexOf(item)]!;

/** Runs `task` `n` times at once (several processes); waits for all before reporting an error. */
export async function together(n: number, task: () => Promise<unknown>) {
  const results = await Promise.allSettled(Array.from({ length: n }, task));
  for (const result of results) if (result.status === "rejected") throw result.reason;
}

/** The vault's custom error behind a refused transaction, or null. */
function revertNameOf(error: unknown): string | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? (reverted.data?.errorName ?? null) : null;
}

/** Runs `task`; a revert named in `allowed` is a legitimate refusal. */
async function refusedBy(allowed: string[], task: () => Promise<unknown>): Promise<string> {
  try {
    await task();
    return "done";
  } catch (error) {
    if (allowed.includes(revertNameOf(error) ?? "")) return "refused";
    throw error;
  }
}

const WITHDRAW_REFUSALS = [/^You do not have enough available balance\.$/, /^The smallest withdrawal is 1 QUEST\.$/, /daily withdrawal limit/];
const CANCEL_REFUSALS = [
  "This withdrawal is already cancelled.",
  "This withdrawal has been paid, so it cannot be cancelled.",
  "This withdrawal is being sent on chain, so it cannot be cancelled.",
  "This withdrawal cannot be cancelled yet: an earlier attempt may still be paid. Try again in a few minutes.",
  "This withdrawal changed in the meantime. Reload the page and try again.",
];

const bigints = (_: string, value: unknown) => (typeof value === "bigint" ? `${value}` : value);
const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);
const logKey = (txHash: string, logIndex: number) => `${txHash.toLowerCase()}:${logIndex}`;
const strangerRef = (member: number): Hex => keccak256(toHex(`nobody's reference ${member}`));
const settled = (w: { status: string }) => w.status === "confirmed" || w.status === "cancelled";

/** The commands and checks over `world`, with the job and the scan run by `runner`. */
export function moneyModel(world: MoneyWorld, runner: Runner) {
  const { chains } = world;
  const vaultOf = (chainId: number) => world.vaults.get(chainId)!;
  const nodeOf = (chainId: number) => world.two.of(chainId).node;
  /** How often each command came out each way, and which statuses were seen, over all runs. */
  const tally = new Map<string, number>();
  const statusesSeen = new Set<string>();
  const count = (label: string) => tally.set(label, (tally.get(label) ?? 0) + 1);
  const requestKeys = new Map<string, string>();
  /** The request key numbered `k` of a member in this run (a uuid, as the form makes). */
  const requestKeyOf = (run: Run, member: number, k: number) => {
    const name = `${run.members[member]!.userId}:${k}`;
    if (!requestKeys.has(name)) requestKeys.set(name, randomUUID());
    return requestKeys.get(name)!;
  };

  /** Transactions from one account, one after the other (each takes the account's next nonce). */
  const lanes = new Map<string, Promise<unknown>>();
  function inLane<T>(lane: string, task: () => Promise<T>): Promise<T> {
    const next = (lanes.get(lane) ?? Promise.resolve()).catch(() => {}).then(task);
    lanes.set(lane, next);
    return next;
  }

  const mine = (chainId: number, blocks: number) => rpc(nodeOf(chainId).url, "anvil_mine", [toHex(blocks)]);
  /** Each chain's index, id and asset. */
  const eachChain = CHAIN_IDS.map((chainId, index) => ({ index, chainId, asset: questAsset(chainId) }));

  /** Carries out one command; returns how it came out ("refused" for a legitimate refusal). Anything unexpected throws. */
  async function execute(run: Run, command: Command): Promise<string> {
    const { db } = run;
    switch (command.op) {
      case "deposit": {
        const member = run.members[command.member]!;
        const chainId = chainIdOf(command);
        const ref = command.stranger ? strangerRef(command.member) : member.ref;
        let status = "refused";
        const outcome = await refusedBy(
          ["EnforcedPause"],
          async () => (status = await inLane(`${chainId}:${member.wallet}`, () => vaultOf(chainId).depositAs(member.key, command.amount, ref))),
        );
        // A deposit estimated before a pause and mined after it reverts: refused too.
        if (outcome === "refused" || status !== "success") return "refused";
        if (!command.stranger) run.deposited[chainIndexOf(command)]![command.member]! += command.amount;
        return command.stranger ? "stranger" : "done";
      }
      case "scan":
        await runner.scan(run, chainIdOf(command), command.scanners);
        return "done";
      case "mine":
        await mine(chainIdOf(command), command.blocks);
        return "done";
      case "credit": {
        const grant = run.grants[command.grant]!;
        const posted = await credit({
          db,
          key: `grant:${command.grant}`,
          kind: "reward",
          userId: run.members[grant.member]!.userId,
          asset: questAsset(chainIdOf(grant)),
          amount: grant.amount,
        });
        run.granted.add(command.grant);
        return posted.created ? "done" : "duplicate";
      }
      case "withdraw":
        return withdraw(run, command);
      case "job":
        await runner.job(run, chainIdOf(command), command.workers);
        return "done";
      case "retry":
      case "cancel":
        return retryOrCancel(run, command);
      case "pauseVault":
      case "unpauseVault": {
        const pause = command.op === "pauseVault";
        const chainId = chainIdOf(command);
        return refusedBy([pause ? "EnforcedPause" : "ExpectedPause"], () => inLane(`${chainId}:admin`, () => vaultOf(chainId).setVaultPaused(pause)));
      }
      case "operatorPause":
      case "operatorResume":
        await setWithdrawalsPaused({ db, paused: command.op === "operatorPause", by: "operator" });
        return "done";
      case "kill":
        if (!runner.kill) throw new Error("this runner has no worker processes to kill");
        return runner.kill(run, chainIdOf(command));
    }
  }

  async function withdraw(run: Run, command: Extract<Command, { op: "withdraw" }>): Promise<string> {
    const { member, amount, key } = command;
    const { userId, wallet } = run.members[member]!;
    const asset = questAsset(chainIdOf(command));
    const result = await requestWithdrawal({ db: run.db, userId, input: form(wallet, amount, requestKeyOf(run, member, key), asset), limits });
    if (!result.ok) {
      expect(
        WITHDRAW_REFUSALS.some((pattern) => pattern.test(failureMessage(result))),
        failureMessage(result),
      ).toBe(true);
      return "refused";
    }
    const name = `${member}:${key}`;
    const first = run.requests.get(name);
    if (first) {
      // A reused request key gives the first withdrawal back, never a second one.
      expect(result.id).toBe(first);
      return "duplicate";
    }
    run.requests.set(name, result.id);
    run.withdrawals.push({ id: result.id, member });
    return "done";
  }

  /** The owner retries or cancels one of the run's withdrawals. */
  async function retryOrCancel(run: Run, { op, pick }: Extract<Command, { op: "retry" | "cancel" }>): Promise<string> {
    if (!run.withdrawals.length) return "nothing";
    const { id, member } = run.withdrawals[pick % run.withdrawals.length]!;
    const { userId } = run.members[member]!;
    const result = op === "retry" ? await retryWithdrawal({ db: run.db, userId, id }) : await cancelWithdrawal({ db: run.db, userId, id, chains });
    if (result.ok) return "done";
    expect(op === "retry" ? ["Only a failed withdrawal can be retried."] : CANCEL_REFUSALS).toContain(failureMessage(result));
    return "refused";
  }

  /** Runs a batch concurrently; every command must come out as done or a legitimate refusal. */
  async function runBatch(run: Run, batch: Command[]) {
    const results = await Promise.allSettled(batch.map((command) => execute(run, command)));
    const failures = results.flatMap((result, i) => (result.status === "rejected" ? [`${JSON.stringify(batch[i], bigints)}: ${String(result.reason)}`] : []));
    expect(failures, "commands threw").toEqual([]);
    expect(run.unexpected, "withdrawal job steps threw").toEqual([]);
    results.forEach((result, i) => {
      if (result.status !== "fulfilled") return;
      const command = batch[i]!;
      count(`${command.op}:${result.value}`);
      // A command that names no chain acts on the first one.
      if (CHAIN_COMMANDS.has(command.op)) count(`${command.op}:${result.value}@${chainIdOf("chain" in command ? command : {})}`);
    });
  }

  const platform = (db: Db, name: PlatformAccount, asset: Asset) => platformBalance({ db, name, asset });
  /** What the treasury gave a member on a chain (by index) in this run: the starting credit and the grants posted there. */
  const creditedTo = (run: Run, index: number, chain: number) =>
    STARTING + sum(run.grants.filter((g, i) => g.member === index && chainIndexOf(g) === chain && run.granted.has(i)).map((g) => g.amount));

  /** The ledger's invariants, and every platform and member balance, per chain's asset, against the rows it follows. */
  async function expectLedgerFollowsRows(run: Run) {
    const { db } = run;
    expect(await checkLedger({ db })).toEqual(CLEAN);
    expect(rowsOf(await db.execute(sql`select asset from ledger_account group by asset having sum(balance) <> 0`)), "balances sum to zero per asset").toEqual(
      [],
    );
    const [allWithdrawals, allDeposits] = await Promise.all([db.select().from(withdrawal), db.select().from(deposit)]);
    const amounts = (statuses: string[], rows: { status: string; amount: bigint }[]) =>
      sum(rows.filter((r) => statuses.includes(r.status)).map((r) => r.amount));
    for (const row of [...allWithdrawals, ...allDeposits]) {
      const kind = "toAddress" in row ? "withdrawal" : "deposit";
      statusesSeen.add(`${kind}:${row.status}`).add(`${kind}:${row.status}@${row.chainId}`);
    }
    for (const row of allWithdrawals) if (row.failure) statusesSeen.add(`failure:${row.failure}`);
    // Every row names a chain of the run and that chain's asset: nothing crosses.
    expect(
      [...allWithdrawals, ...allDeposits]
        .filter((row) => row.asset !== questAsset(row.chainId) || !CHAIN_IDS.includes(row.chainId as never))
        .map((row) => row.id),
      "rows whose asset is not their chain's",
    ).toEqual([]);

    for (const { index: chain, chainId, asset } of eachChain) {
      const withdrawals = allWithdrawals.filter((w) => w.chainId === chainId);
      const deposits = allDeposits.filter((d) => d.chainId === chainId);
      const confirmed = withdrawals.filter((w) => w.status === "confirmed");
      const on = `chain ${chainId}`;
      expect(await platform(db, "deposits_in_transit", asset), `${on}: in transit: the pending deposits`).toBe(amounts(["pending"], deposits));
      expect(await platform(db, "withdrawals_in_flight", asset), `${on}: in flight: the withdrawals sending or sent`).toBe(
        amounts(["sending", "sent"], withdrawals),
      );
      expect(await platform(db, "fees", asset), `${on}: fees: those of confirmed withdrawals`).toBe(sum(confirmed.map((w) => w.fee)));
      expect(await platform(db, "treasury", asset), `${on}: treasury: what it credited`).toBe(
        -sum(run.members.map((_, index) => creditedTo(run, index, chain))),
      );
      expect(-(await platform(db, "onchain", asset)), `${on}: on chain: deposits seen less withdrawals paid`).toBe(
        amounts(["pending", "credited"], deposits) - sum(confirmed.map((w) => w.amount - w.fee)),
      );
      for (const [index, { userId }] of run.members.entries()) {
        const [balance = { available: 0n, held: 0n }] = await balanceOf({ db, userId, asset });
        const own = withdrawals.filter((w) => w.userId === userId);
        const grants = creditedTo(run, index, chain);
        expect(balance.held, `${on}: ${userId} holds what waits to be sent`).toBe(amounts(["requested", "failed"], own));
        expect(balance.available + balance.held, `${on}: ${userId}'s balance`).toBe(
          grants +
            amounts(
              ["credited"],
              deposits.filter((d) => d.userId === userId),
            ) -
            amounts(["sending", "sent", "confirmed"], own),
        );
      }
    }
    const credits = rowsOf(await db.execute(sql`select reference, count(*)::int as n from journal_entry where kind = 'deposit' group by reference`));
    const creditsOf = new Map(credits.map((row) => [String(row.reference), Number(row.n)]));
    for (const row of allDeposits)
      expect(creditsOf.get(row.id) ?? 0, `credit entries of deposit ${row.id} (${row.status})`).toBe(row.status === "credited" ? 1 : 0);
    return { withdrawals: allWithdrawals, deposits: allDeposits };
  }

  /** Each chain against its rows and the ledger: what its vault paid, what was deposited there, what its vault holds. */
  async function expectChainAgrees(run: Run) {
    const { withdrawals: allWithdrawals, deposits: allDeposits } = await expectLedgerFollowsRows(run);
    const events = new Map<number, Awaited<ReturnType<VaultOnChain["vaultEvents"]>>>();
    for (const { index: chain, chainId, asset } of eachChain) {
      const vault = vaultOf(chainId);
      const on = `chain ${chainId}`;
      const withdrawals = allWithdrawals.filter((w) => w.chainId === chainId);
      const deposits = allDeposits.filter((d) => d.chainId === chainId);
      const { deposited, withdrawn } = await vault.vaultEvents();
      events.set(chainId, { deposited, withdrawn });
      // Only this chain's withdrawals: a payment here of another chain's withdrawal is unknown here.
      const rowOf = new Map(withdrawals.map((w) => [w.id, w]));
      const payments = new Map<string, number>();
      for (const event of withdrawn) {
        const id = event.args.withdrawalId.toLowerCase();
        payments.set(id, (payments.get(id) ?? 0) + 1);
        const row = rowOf.get(id);
        expect(row, `${on}: paid withdrawal ${id} is one of this chain's`).toBeDefined();
        // Paid on chain: never cancelled, failed or waiting to be sent again.
        expect(["sending", "sent", "confirmed"], `${on}: paid withdrawal ${id}`).toContain(row!.status);
        expect([event.args.to, event.args.amount]).toEqual([getAddress(row!.toAddress), row!.amount - row!.fee]);
      }
      expect(
        [...payments.values()].filter((n) => n > 1),
        `${on}: withdrawals paid more than once`,
      ).toEqual([]);
      for (const row of withdrawals.filter((w) => w.status === "confirmed")) expect(payments.get(row.id), `${on}: confirmed ${row.id} was paid`).toBe(1);

      const logs = new Map(deposited.map((log) => [logKey(log.transactionHash, log.logIndex), log]));
      const seen = new Set<string>();
      for (const row of deposits) {
        const key = logKey(row.txHash, row.logIndex);
        expect(seen.has(key), `${on}: deposit ${key} recorded once`).toBe(false);
        seen.add(key);
        const log = logs.get(key);
        expect(log, `${on}: deposit ${key} is on chain`).toBeDefined();
        expect([row.amount, row.ref, row.blockNumber]).toEqual([log!.args.amount, log!.args.ref.toLowerCase(), Number(log!.blockNumber)]);
      }
      for (const [index, member] of run.members.entries()) {
        expect(
          sum(deposited.filter((log) => log.args.ref.toLowerCase() === member.ref).map((log) => log.args.amount)),
          `${on}: ${member.userId}'s deposits on chain`,
        ).toBe(run.deposited[chain]![index]);
      }
      // The vault holds what the ledger puts on this chain, plus deposits not (or never to be)
      // credited, less payments the ledger has not confirmed yet.
      const inLedger = new Set(deposits.filter((d) => d.status === "pending" || d.status === "credited").map((d) => logKey(d.txHash, d.logIndex)));
      const outside = sum(deposited.filter((log) => !inLedger.has(logKey(log.transactionHash, log.logIndex))).map((log) => log.args.amount));
      const unconfirmed = sum(
        withdrawn.filter((event) => rowOf.get(event.args.withdrawalId.toLowerCase())?.status !== "confirmed").map((event) => event.args.amount),
      );
      expect(await vault.tokenBalance(vault.addresses.DepositVault), `${on}: the vault holds what the ledger says`).toBe(
        -(await platform(run.db, "onchain", asset)) + outside - unconfirmed,
      );
    }
    return { withdrawals: allWithdrawals, deposits: allDeposits, events };
  }

  /** Resumes everything, retries every failed withdrawal and runs each chain's scanner and job until nothing is left under way. */
  async function driveToQuiescence(run: Run) {
    for (const { chainId } of eachChain) {
      const vault = vaultOf(chainId);
      if (await vault.vaultPaused()) await inLane(`${chainId}:admin`, () => vault.setVaultPaused(false));
    }
    await setWithdrawalsPaused({ db: run.db, paused: false, by: "operator" });
    const onEachChain = (task: (chainId: number) => Promise<unknown>) => Promise.all(eachChain.map(({ chainId }) => task(chainId)));
    for (let round = 0; round < 8; round++) {
      const rows = await run.db.select().from(withdrawal);
      for (const row of rows.filter((w) => w.status === "failed"))
        expect(await retryWithdrawal({ db: run.db, userId: row.userId, id: row.id })).toEqual({ ok: true });
      await onEachChain((chainId) => runner.job(run, chainId, 1));
      await onEachChain((chainId) => mine(chainId, CONFIRMATIONS));
      await onEachChain((chainId) => runner.scan(run, chainId, 1));
      await onEachChain((chainId) => runner.job(run, chainId, 1));
      const deposits = await run.db.select().from(deposit);
      const onChain = await Promise.all(eachChain.map(async ({ chainId }) => (await vaultOf(chainId).vaultEvents()).deposited.length));
      const withdrawals = await run.db.select().from(withdrawal);
      const onChainCount = onChain.reduce((total, n) => total + n, 0);
      if (withdrawals.every(settled) && deposits.every((d) => d.status !== "pending") && deposits.length === onChainCount) return;
    }
  }

  /**
   * At rest, on each chain: each deposit credited once, each withdrawal confirmed and paid once by its
   * own chain's vault (never by the other's) or cancelled and never paid, wallets square.
   */
  async function expectAtRest(run: Run, walletsBefore: bigint[][]) {
    expect(run.unexpected, "withdrawal job steps threw").toEqual([]);
    const { withdrawals: allWithdrawals, deposits: allDeposits, events } = await expectChainAgrees(run);
    const refs = new Set<string>(run.members.map((m) => m.ref));
    for (const row of allWithdrawals) {
      expect(["confirmed", "cancelled"], `withdrawal ${row.id}`).toContain(row.status);
      for (const { chainId } of eachChain)
        expect(await vaultOf(chainId).paid(row.id), `withdrawal ${row.id} of chain ${row.chainId} (${row.status}) paid on chain ${chainId}`).toBe(
          row.status === "confirmed" && row.chainId === chainId,
        );
    }
    for (const { index: chain, chainId, asset } of eachChain) {
      const vault = vaultOf(chainId);
      const on = `chain ${chainId}`;
      const { deposited, withdrawn } = events.get(chainId)!;
      const withdrawals = allWithdrawals.filter((w) => w.chainId === chainId);
      const deposits = allDeposits.filter((d) => d.chainId === chainId);
      expect(deposits.length, `${on}: every deposit on chain recorded`).toBe(deposited.length);
      for (const row of deposits) expect(row.status, `${on}: deposit ${row.id}`).toBe(refs.has(row.ref) ? "credited" : "unmatched");
      expect(await platform(run.db, "deposits_in_transit", asset)).toBe(0n);
      expect(await platform(run.db, "withdrawals_in_flight", asset)).toBe(0n);
      const unmatched = sum(deposits.filter((d) => d.status === "unmatched").map((d) => d.amount));
      expect(await vault.tokenBalance(vault.addresses.DepositVault), `${on}: the vault at rest`).toBe(-(await platform(run.db, "onchain", asset)) + unmatched);
      for (const [index, member] of run.members.entries()) {
        const [balance] = await balanceOf({ db: run.db, userId: member.userId, asset });
        const grants = creditedTo(run, index, chain);
        const own = withdrawals.filter((w) => w.userId === member.userId && w.status === "confirmed");
        const paidOut = sum(own.map((w) => w.amount));
        expect({ available: balance?.available ?? 0n, held: balance?.held ?? 0n }, `${on}: ${member.userId} at rest`).toEqual({
          available: grants + run.deposited[chain]![index]! - paidOut,
          held: 0n,
        });
        const sentFrom = sum(deposited.filter((log) => log.args.from === member.wallet).map((log) => log.args.amount));
        const paidTo = sum(withdrawn.filter((event) => event.args.to === member.wallet).map((event) => event.args.amount));
        expect(paidTo, `${on}: ${member.userId}'s wallet got each withdrawal less the fee`).toBe(paidOut - FEE * BigInt(own.length));
        expect(await vault.tokenBalance(member.wallet), `${on}: ${member.userId}'s wallet`).toBe(walletsBefore[chain]![index]! - sentFrom + paidTo);
      }
    }
  }

  /** A fresh database and both chains as they were after setup: three members with linked dev wallets, credited on each chain. */
  async function startRun(database: Database, grants: Grant[]): Promise<Run> {
    await world.two.revert(world.snapshots);
    world.snapshots = await world.two.snapshot();
    const db = database.db;
    const members: Member[] = [];
    for (const [index, key] of MEMBER_KEYS.entries()) {
      const [first, ...others] = eachChain;
      const { userId, wallet } = await fundedMember(db, `m${index}`, STARTING, privateKeyToAccount(key).address, first!.asset);
      for (const { asset } of others) await credit({ db, key: `fund:${userId}:${asset}`, kind: "reward", userId, asset, amount: STARTING });
      members.push({ userId, key, wallet, ref: await depositRefOf({ db, userId }) });
    }
    return {
      db,
      members,
      grants,
      granted: new Set(),
      requests: new Map(),
      withdrawals: [],
      deposited: eachChain.map(() => members.map(() => 0n)),
      unexpected: [],
    };
  }

  /** One whole run: the batches with the checks after each, then quiescence and the checks at rest. */
  async function checkRun(database: Database, grantList: Grant[], batchList: Command[][]) {
    const run = await startRun(database, grantList);
    const walletsBefore = await Promise.all(eachChain.map(({ chainId }) => Promise.all(run.members.map((m) => vaultOf(chainId).tokenBalance(m.wallet)))));
    for (const batch of batchList) {
      await runBatch(run, batch);
      await expectChainAgrees(run);
    }
    await driveToQuiescence(run);
    await expectAtRest(run, walletsBefore);
    return run;
  }

  /**
   * Over all runs: every withdrawal and deposit status met, the outcomes that show the refusals and
   * duplicates were tried, and on each chain a deposit credited and a withdrawal confirmed.
   */
  function expectEverythingMet() {
    for (const status of ["requested", "sent", "failed", "cancelled", "confirmed"])
      expect(statusesSeen, `a withdrawal was ${status}`).toContain(`withdrawal:${status}`);
    for (const status of ["pending", "credited", "unmatched"]) expect(statusesSeen, `a deposit was ${status}`).toContain(`deposit:${status}`);
    for (const outcome of ["withdraw:duplicate", "withdraw:refused", "credit:duplicate", "retry:done", "cancel:done", "deposit:done", "pauseVault:done"]) {
      expect(tally.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    }
    for (const { chainId } of eachChain) {
      for (const status of ["withdrawal:confirmed", "deposit:credited"]) expect(statusesSeen, `on chain ${chainId}`).toContain(`${status}@${chainId}`);
      for (const outcome of ["withdraw:done", "deposit:done", "job:done"])
        expect(tally.get(`${outcome}@${chainId}`) ?? 0, `${outcome} on chain ${chainId}`).toBeGreaterThan(0);
    }
  }

  return { checkRun, expectEverythingMet, tally };
}

const member = fc.nat({ max: MEMBER_KEYS.length - 1 });
/** Which chain a command acts on, by its index in CHAIN_IDS. */
const chain = fc.nat({ max: CHAIN_IDS.length - 1 });
const tokens = (max: number) => fc.integer({ min: 1, max }).map((n) => parseEther(String(n)));
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("deposit" as const), member, amount: tokens(40), stranger: fc.nat({ max: 5 }).map((n) => n === 0), chain }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("scan" as const), scanners: fc.integer({ min: 1, max: 2 }), chain }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("mine" as const), blocks: fc.integer({ min: 1, max: 3 }), chain }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("credit" as const), grant: fc.nat({ max: 3 }) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("withdraw" as const),
      member,
      amount: fc.oneof({ weight: 6, arbitrary: tokens(30) }, { weight: 1, arbitrary: fc.constant(parseEther("0.5")) }),
      key: fc.nat({ max: 2 }),
      chain,
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("job" as const), workers: fc.integer({ min: 1, max: 2 }), chain }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("retry" as const), pick: fc.nat({ max: 5 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("cancel" as const), pick: fc.nat({ max: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("pauseVault" as const), chain }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("unpauseVault" as const), chain }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom("operatorPause" as const, "operatorResume" as const) }) },
);
export const grants = fc.array(fc.record({ member, amount: tokens(80), chain }), { minLength: 4, maxLength: 4 });
export const batches = fc.array(fc.array(command, { minLength: 2, maxLength: 6 }), { minLength: 4, maxLength: 8 });

const t = (n: number) => parseEther(String(n));
/**
 * A run that surely meets every state: waiting, failed on a paused vault and retried, cancelled,
 * pending, unmatched (on the first chain); on the second, a credit, a deposit and withdrawals.
 */
export const SCRIPTED: [Grant[], Command[][]] = [
  [
    { member: 0, amount: t(40) },
    { member: 1, amount: t(30) },
    { member: 2, amount: t(20), chain: 1 },
    { member: 0, amount: t(10) },
  ],
  [
    [
      { op: "credit", grant: 0 },
      { op: "credit", grant: 1 },
      { op: "credit", grant: 2 },
      { op: "deposit", member: 1, amount: t(7), stranger: true },
      { op: "deposit", member: 0, amount: t(9), stranger: false, chain: 1 },
    ],
    // A batch of its own, so it is surely the last one mined (in one batch the two deposits race).
    [{ op: "deposit", member: 2, amount: t(25), stranger: false }],
    // Scanned alone, before any other transaction is mined: the last deposit has one of its two confirmations (pending).
    [{ op: "scan", scanners: 1 }],
    [
      { op: "withdraw", member: 0, amount: t(10), key: 0 },
      { op: "withdraw", member: 0, amount: t(10), key: 0 },
      { op: "withdraw", member: 1, amount: t(5), key: 0 },
      { op: "pauseVault" },
      { op: "operatorPause" },
    ],
    [
      { op: "job", workers: 1 },
      { op: "mine", blocks: 1 },
    ],
    [{ op: "operatorResume" }, { op: "scan", scanners: 2 }],
    [
      { op: "job", workers: 1 },
      { op: "credit", grant: 0 },
    ],
    [{ op: "cancel", pick: 1 }, { op: "unpauseVault" }, { op: "withdraw", member: 2, amount: t(20), key: 1 }],
    [
      { op: "retry", pick: 0 },
      { op: "job", workers: 1 },
      { op: "withdraw", member: 2, amount: parseEther("0.5"), key: 2 },
    ],
    [
      { op: "job", workers: 2 },
      { op: "deposit", member: 0, amount: t(3), stranger: false },
      { op: "withdraw", member: 2, amount: t(15), key: 0, chain: 1 },
    ],
    // The second chain: member 0's deposit there scanned, member 2's withdrawal there sent; member 0
    // reuses the request key of its first-chain withdrawal and gets that one back.
    [
      { op: "scan", scanners: 1, chain: 1 },
      { op: "withdraw", member: 0, amount: t(4), key: 0, chain: 1 },
      { op: "job", workers: 1, chain: 1 },
    ],
  ],
];
