import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "~/lib/db.server";
import { CLUSTER_THRESHOLDS as T, type ClusterFact } from "./score-rules";
import type { ClusterKind } from "./trust-types";

/**
 * The clusters of decision 059, each found set-based from the kept signals: one statement per
 * kind, and a union-find over compact arrays where a kind links members pairwise (chains of
 * funders, synchronized completions).
 */

/** A cluster found by this run: what its members share (`key`, stable across runs), and each member's words. */
export type FoundCluster = {
  kind: ClusterKind;
  key: string;
  userIds: string[];
  summary: string;
  evidence: Record<string, unknown>;
  factOf: (userId: string, clusterId: string) => ClusterFact;
};

const str = (value: unknown) => String(value);
const time = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));
/** Keeps evidence small: the first few of a list. */
const few = <V>(list: readonly V[], n = 20) => list.slice(0, n);

/** Union-find over 0…n−1, path-halving, by size. */
class Components {
  private parent: Int32Array;
  private size: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n).map((_, i) => i);
    this.size = new Int32Array(n).fill(1);
  }
  root(i: number): number {
    const parent = this.parent;
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  }
  join(a: number, b: number) {
    let ra = this.root(a);
    let rb = this.root(b);
    if (ra === rb) return;
    if (this.size[ra]! < this.size[rb]!) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.size[ra]! += this.size[rb]!;
  }
}

/** Numbers strings as they come: 0, 1, 2… */
function indexer() {
  const ids = new Map<string, number>();
  const names: string[] = [];
  return {
    of(name: string) {
      let id = ids.get(name);
      if (id === undefined) {
        id = names.length;
        ids.set(name, id);
        names.push(name);
      }
      return id;
    },
    names,
  };
}

const sharedList = (shared: ReadonlySet<string>) => JSON.stringify([...shared].map((address) => address.toLowerCase()));

/** The member of each linked wallet, by lower-case address. */
const MEMBER_WALLETS = sql`select distinct on (lower(address)) lower(address) as address, user_id from wallet_address order by lower(address), created_at`;

/**
 * Wallets linked by their funders: a wallet and its funder are one node each, joined by the
 * funding; a funder that is itself a member's wallet chains on. Components of FUNDER_MEMBERS
 * distinct members or more. Shared funders (exchanges, bridges, faucets) and unknown funding
 * link nothing. Keyed by the component's first root funder (one no member wallet of it funded).
 */
export async function funderClusters(db: Db, sharedFunders: ReadonlySet<string>): Promise<FoundCluster[]> {
  const rows = rowsOf(
    await db.execute(sql`
      with member_wallet as (${MEMBER_WALLETS})
      select distinct lower(p.address) as wallet, lower(p.funder) as funder, m.user_id
      from wallet_profile p
      join member_wallet m on m.address = lower(p.address)
      where p.status = 'known' and p.funder is not null
        and lower(p.funder) not in (select jsonb_array_elements_text(${sharedList(sharedFunders)}::jsonb))`),
  );
  const nodes = indexer();
  const edges: number[] = [];
  for (const row of rows) edges.push(nodes.of(str(row.wallet)), nodes.of(str(row.funder)));
  const components = new Components(nodes.names.length);
  for (let i = 0; i < edges.length; i += 2) components.join(edges[i]!, edges[i + 1]!);

  const groups = new Map<number, { members: Set<string>; wallets: Set<string>; funders: Set<string> }>();
  for (const row of rows) {
    const root = components.root(nodes.of(str(row.wallet)));
    let group = groups.get(root);
    if (!group) groups.set(root, (group = { members: new Set(), wallets: new Set(), funders: new Set() }));
    group.members.add(str(row.user_id));
    group.wallets.add(str(row.wallet));
    group.funders.add(str(row.funder));
  }
  const found: FoundCluster[] = [];
  for (const group of groups.values()) {
    if (group.members.size < T.funderMembers) continue;
    const roots = [...group.funders].filter((funder) => !group.wallets.has(funder)).sort();
    const chained = [...group.funders].some((funder) => group.wallets.has(funder));
    const key = roots[0] ?? [...group.funders].sort()[0]!;
    const size = group.members.size;
    found.push({
      kind: "funder",
      key,
      userIds: [...group.members],
      summary: chained
        ? `${size} members' wallets were funded through one chain of wallets from ${roots.length === 1 ? key : `${roots.length} addresses`}`
        : `${size} members' wallets were first funded by ${key}`,
      evidence: { funders: few(roots.length > 0 ? roots : [key]), wallets: group.wallets.size, chained, intermediaries: group.funders.size - roots.length },
      factOf: (_, clusterId) => ({ kind: "funder", clusterId, size, chained }),
    });
  }
  return found;
}

/** Members whose wallets swept their coin to one address (not a shared one): SWEEP_MEMBERS or more. */
export async function sweepClusters(db: Db, sharedFunders: ReadonlySet<string>): Promise<FoundCluster[]> {
  const rows = rowsOf(
    await db.execute(sql`
      with member_wallet as (${MEMBER_WALLETS})
      select lower(p.swept_to) as key, array_agg(distinct m.user_id) as members, count(distinct p.address)::int as wallets
      from wallet_profile p
      join member_wallet m on m.address = lower(p.address)
      where p.status = 'known' and p.swept_to is not null
        and lower(p.swept_to) not in (select jsonb_array_elements_text(${sharedList(sharedFunders)}::jsonb))
      group by lower(p.swept_to)
      having count(distinct m.user_id) >= ${T.sweepMembers}`),
  );
  return rows.map((row) => {
    const userIds = row.members as string[];
    const size = userIds.length;
    return {
      kind: "sweep",
      key: str(row.key),
      userIds,
      summary: `${size} members' wallets swept their coin to ${str(row.key)}`,
      evidence: { sweptTo: str(row.key), wallets: Number(row.wallets) },
      factOf: (_, clusterId) => ({ kind: "sweep", clusterId, size }),
    };
  });
}

/**
 * Accounts created from one network (its hash) where NETWORK_ACCOUNTS or more signed up within
 * NETWORK_HOURS, and NETWORK_OVER_USUAL times what the network brings in as long on average over
 * NETWORK_USUAL_DAYS: every sign-up inside such a window, a run of overlapping windows one
 * cluster, keyed by the network's hash and the run's first sign-up.
 */
export async function networkClusters(db: Db): Promise<FoundCluster[]> {
  const hours = `${T.networkHours} hours`;
  const rows = rowsOf(
    await db.execute(sql`
      with sign_up as (
        select user_id, network_hash, created_at,
          count(*) over (partition by network_hash order by created_at range between current row and ${hours}::interval following) as ahead,
          count(*) over (partition by network_hash) as total
        from access_context where kind = 'sign_up'
      ),
      burst as (
        select user_id, network_hash, created_at,
          case when ahead >= ${T.networkAccounts} and ahead >= ${T.networkOverUsual} * total * ${T.networkHours / (T.networkUsualDays * 24)}::float8
            then ahead else 0 end::int as ahead
        from sign_up
      )
      select user_id, network_hash, created_at, ahead from burst
      where network_hash in (select network_hash from burst where ahead > 0)
      order by network_hash, created_at`),
  );
  const found: FoundCluster[] = [];
  let start = 0;
  while (start < rows.length) {
    let end = start;
    while (end < rows.length && rows[end]!.network_hash === rows[start]!.network_hash) end++;
    // One network's sign-ups, in time order: mark those inside a full window, then cut the runs.
    const covered = new Uint8Array(end - start);
    for (let i = start; i < end; i++) {
      const ahead = Number(rows[i]!.ahead);
      if (ahead > 0) covered.fill(1, i - start, i - start + ahead);
    }
    for (let i = 0; i < covered.length;) {
      if (!covered[i]) {
        i++;
        continue;
      }
      let j = i;
      while (j < covered.length && covered[j]) j++;
      const run = rows.slice(start + i, start + j);
      const first = time(run[0]!.created_at);
      const last = time(run.at(-1)!.created_at);
      const spanHours = (last.getTime() - first.getTime()) / 3_600_000;
      const userIds = [...new Set(run.map((row) => str(row.user_id)))];
      const size = userIds.length;
      const hash = str(run[0]!.network_hash);
      if (size >= T.networkAccounts)
        found.push({
          kind: "network",
          key: `${hash}@${first.toISOString()}`,
          userIds,
          summary: `${size} accounts were created from one network between ${whenOf(first)} and ${whenOf(last)}`,
          evidence: { networkHash: hash, from: first.toISOString(), to: last.toISOString() },
          factOf: (_, clusterId) => ({ kind: "network", clusterId, size, hours: spanHours }),
        });
      i = j;
    }
    start = end;
  }
  return found;
}

/**
 * Members who completed SYNC_TASKS or more of the same tasks each within SYNC_SECONDS of one
 * another: pairs so linked, joined into components of SYNC_MEMBERS or more. Rejected attempts
 * aside. Keyed by the time of the component's first linked completion (and a task of its first pair).
 */
export async function synchronizedClusters(db: Db): Promise<FoundCluster[]> {
  // Only completions with another of the same task within SYNC_SECONDS count. Each falls in a slot
  // of SYNC_SECONDS; its neighbours are in its slot or the two beside it: an equality join on
  // (task, slot) over three shifted copies, then the exact distance.
  const seconds = `${T.syncSeconds} seconds`;
  const rows = rowsOf(
    await db.execute(sql`
      with ordered as (
        select task_id, user_id, created_at,
          created_at - lag(created_at) over w as after_previous, lead(created_at) over w - created_at as before_next
        from completion where status <> 'rejected'
        window w as (partition by task_id order by created_at)
      ),
      done as (
        select task_id, user_id, created_at, floor(extract(epoch from created_at) / ${T.syncSeconds})::bigint as slot
        from ordered
        where after_previous <= ${seconds}::interval or before_next <= ${seconds}::interval
      ),
      shifted as (select d.task_id, d.user_id, d.created_at, d.slot + s.k as slot from done d cross join (values (-1), (0), (1)) as s(k))
      select a.user_id as one, b.user_id as other, count(distinct a.task_id)::int as tasks,
        min(a.created_at) as first_at, min(a.task_id) as first_task
      from done a
      join shifted b on b.task_id = a.task_id and b.slot = a.slot and b.user_id > a.user_id
      where abs(extract(epoch from b.created_at - a.created_at)) <= ${T.syncSeconds}
      group by a.user_id, b.user_id
      having count(distinct a.task_id) >= ${T.syncTasks}`),
  );
  const members = indexer();
  const pairs: number[] = [];
  for (const row of rows) pairs.push(members.of(str(row.one)), members.of(str(row.other)));
  const components = new Components(members.names.length);
  for (let i = 0; i < pairs.length; i += 2) components.join(pairs[i]!, pairs[i + 1]!);
  // Per member, the most tasks shared with one other member of the component.
  const tasksOf = new Int32Array(members.names.length);
  const groups = new Map<number, { members: Set<number>; firstAt: Date; firstTask: string }>();
  rows.forEach((row, r) => {
    const [a, b] = [pairs[2 * r]!, pairs[2 * r + 1]!];
    const tasks = Number(row.tasks);
    tasksOf[a] = Math.max(tasksOf[a]!, tasks);
    tasksOf[b] = Math.max(tasksOf[b]!, tasks);
    const root = components.root(a);
    const at = time(row.first_at);
    const group = groups.get(root);
    if (!group) groups.set(root, { members: new Set([a, b]), firstAt: at, firstTask: str(row.first_task) });
    else {
      group.members.add(a).add(b);
      if (at < group.firstAt) Object.assign(group, { firstAt: at, firstTask: str(row.first_task) });
    }
  });
  const found: FoundCluster[] = [];
  for (const group of groups.values()) {
    if (group.members.size < T.syncMembers) continue;
    const size = group.members.size;
    const ids = [...group.members];
    const tasksByUser = new Map(ids.map((i) => [members.names[i]!, tasksOf[i]!]));
    const most = Math.max(...tasksByUser.values());
    found.push({
      kind: "synchronized",
      key: `${group.firstTask}@${group.firstAt.toISOString()}`,
      userIds: [...tasksByUser.keys()],
      summary: `${size} members completed up to ${most} of the same tasks within ${T.syncSeconds} seconds of each other, from ${whenOf(group.firstAt)}`,
      evidence: { firstTaskId: group.firstTask, firstAt: group.firstAt.toISOString(), mostTasks: most, seconds: T.syncSeconds },
      factOf: (userId, clusterId) => ({ kind: "synchronized", clusterId, size, tasks: tasksByUser.get(userId) ?? T.syncTasks }),
    });
  }
  return found;
}

/**
 * One written answer, proof or link given by SAME_ANSWER_MEMBERS or more members, normalised
 * (case, spaces and punctuation; a link's scheme, `www.`, fragment and trailing slash). Quiz
 * answers, meant to be equal, and answers shorter than SAME_ANSWER_MIN_LENGTH are left out.
 * Keyed by the normalised answer's hash.
 */
export async function sameAnswerClusters(db: Db): Promise<FoundCluster[]> {
  const rows = rowsOf(
    await db.execute(sql`
      with given as (
        select c.user_id, c.task_id,
          case when c.submission ? 'text'
            then btrim(regexp_replace(lower(c.submission->>'text'), '[[:punct:][:space:]]+', ' ', 'g'))
            else regexp_replace(regexp_replace(lower(btrim(coalesce(c.submission->>'url', c.submission->>'imageUrl'))), '^[a-z]+://(www\\.)?', ''), '(#.*)?/*$', '')
          end as answer
        from completion c join task t on t.id = c.task_id
        where t.type <> 'quiz' and c.status <> 'rejected'
          -- Normalising only shortens: an answer already too short is left out before it.
          and length(coalesce(c.submission->>'text', c.submission->>'url', c.submission->>'imageUrl')) >= ${T.sameAnswerMinLength}
      )
      select md5(answer) as key, array_agg(distinct user_id) as members, array_agg(distinct task_id) as tasks, min(answer) as answer
      from given where length(answer) >= ${T.sameAnswerMinLength}
      group by md5(answer)
      having count(distinct user_id) >= ${T.sameAnswerMembers}`),
  );
  return rows.map((row) => {
    const userIds = row.members as string[];
    const size = userIds.length;
    const answer = str(row.answer);
    return {
      kind: "same_answer",
      key: str(row.key),
      userIds,
      summary: `${size} members gave the same answer: "${answer.length > 80 ? `${answer.slice(0, 80)}…` : answer}"`,
      evidence: { answer: answer.slice(0, 200), taskIds: few(row.tasks as string[]) },
      factOf: (_, clusterId) => ({ kind: "same_answer", clusterId, size }),
    };
  });
}

/**
 * A referrer with REFERRAL_REFEREES or more fresh referees (under REFERRAL_FRESH_DAYS old when
 * referred, at least REFERRAL_GRACE_HOURS ago) who did at most REFERRAL_IDLE_TASKS tasks beyond
 * referrals, when they are at least half of everyone the referrer brought: the referrer and those
 * referees. Keyed by the referrer.
 */
export async function referralClusters(db: Db, now: Date): Promise<FoundCluster[]> {
  const rows = rowsOf(
    await db.execute(sql`
      with fresh as (
        select r.referrer_id, r.referred_id
        from referral r join "user" u on u.id = r.referred_id
        where r.created_at - u.created_at < ${`${T.referralFreshDays} days`}::interval
          and r.created_at <= ${now.toISOString()}::timestamptz - ${`${T.referralGraceHours} hours`}::interval
      ),
      busy as (
        select c.user_id from completion c join task t on t.id = c.task_id
        where t.type <> 'referral' and c.status <> 'rejected' and c.user_id in (select referred_id from fresh)
        group by c.user_id having count(distinct c.task_id) > ${T.referralIdleTasks}
      ),
      brought as (select referrer_id, count(*) as total from referral group by referrer_id)
      select f.referrer_id, array_agg(f.referred_id) as referees
      from fresh f join brought b on b.referrer_id = f.referrer_id
      where f.referred_id not in (select user_id from busy)
      group by f.referrer_id, b.total
      having count(*) >= ${T.referralReferees} and 2 * count(*) >= b.total`),
  );
  return rows.map((row) => {
    const referrer = str(row.referrer_id);
    const referees = row.referees as string[];
    const n = referees.length;
    return {
      kind: "referral",
      key: referrer,
      userIds: [referrer, ...referees.filter((id) => id !== referrer)],
      summary: `One member referred ${n} fresh accounts that did little else`,
      evidence: { referrerId: referrer, referees: n },
      factOf: (userId, clusterId) => ({ kind: "referral", clusterId, size: n + 1, role: userId === referrer ? "referrer" : "referee", referees: n }),
    };
  });
}

/** A time in a cluster's summary, as a team reads it (stored text: the server's words, in UTC). */
const whenOf = (at: Date) => `${at.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
