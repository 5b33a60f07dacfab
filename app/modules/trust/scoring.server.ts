import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { trustScore } from "#db/schema/trust";
import { rowsOf, type Db } from "~/lib/db.server";
import {
  funderClusters,
  networkClusters,
  referralClusters,
  sameAnswerClusters,
  sweepClusters,
  synchronizedClusters,
  type FoundCluster,
} from "./find-clusters.server";
import { scoreOf, type ClusterFact } from "./score-rules";
import type { TrustReason } from "./trust-types";

export type ScoringRun = { members: number; clusters: number; flagged: number };

/** Scores are written this many members a statement. */
const BATCH = 5_000;

const time = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/**
 * Finds the clusters from every kept signal and writes every member's score with its reasons,
 * set-based (decision 059). A cluster keeps its id from run to run by what its members share
 * (kind and key), so a team's exclusion naming it keeps pointing at it; its membership is this
 * run's. A cluster no longer found stays, empty (size 0), for the exclusions that name it.
 * `isDisposable` names a disposable e-mail address's domain (none by default).
 */
export async function scoreMembers({
  db,
  sharedFunders,
  now = new Date(),
  isDisposable = () => null,
  chainNames,
}: {
  db: Db;
  sharedFunders: ReadonlySet<string>;
  now?: Date;
  isDisposable?: (email: string) => string | null;
  /** Chain names for the members' words ("Wallet active on Ethereum since…"), by id; common ones are known. */
  chainNames?: Readonly<Record<number, string>>;
}): Promise<ScoringRun> {
  const found = [
    ...(await funderClusters(db, sharedFunders)),
    ...(await sweepClusters(db, sharedFunders)),
    ...(await networkClusters(db)),
    ...(await synchronizedClusters(db)),
    ...(await sameAnswerClusters(db)),
    ...(await referralClusters(db, now)),
  ];
  const facts = await memberFacts(db);
  // Two clusters of a kind sharing a key (two groups whose first linked completions coincide): numbered apart.
  const keys = new Map<string, number>();
  for (const cluster of found) {
    const seen = keys.get(`${cluster.kind}\n${cluster.key}`) ?? 0;
    keys.set(`${cluster.kind}\n${cluster.key}`, seen + 1);
    if (seen > 0) cluster.key = `${cluster.key}#${seen + 1}`;
  }

  return db.transaction(async (tx) => {
    const ids = await saveClusters(tx, found, now);
    const clustersOf = new Map<string, ClusterFact[]>();
    found.forEach((cluster, i) => {
      for (const userId of cluster.userIds) {
        const list = clustersOf.get(userId) ?? [];
        list.push(cluster.factOf(userId, ids[i]!));
        clustersOf.set(userId, list);
      }
    });

    let flagged = 0;
    for (let from = 0; from < facts.length; from += BATCH) {
      const batch = facts.slice(from, from + BATCH).map((member) => {
        const scored = scoreOf(
          {
            accountCreatedAt: member.createdAt,
            disposableDomain: isDisposable(member.email),
            clusters: clustersOf.get(member.userId) ?? [],
            oldestWallet: member.oldestWallet,
            fundingUnknown: member.fundingUnknown,
            social: member.social,
          },
          now,
          chainNames,
        );
        if (scored.flagged) flagged++;
        return { user_id: member.userId, score: scored.score, flagged: scored.flagged, reasons: scored.reasons };
      });
      await tx.execute(sql`
        insert into trust_score (user_id, score, flagged, reasons, computed_at)
        select user_id, score, flagged, reasons, ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as s(user_id text, score int, flagged boolean, reasons jsonb)
        on conflict (user_id) do update set score = excluded.score, flagged = excluded.flagged, reasons = excluded.reasons, computed_at = excluded.computed_at`);
    }
    return { members: facts.length, clusters: found.length, flagged };
  });
}

/**
 * Upserts the found clusters by (kind, key) and replaces every membership with this run's; the
 * clusters not found again are emptied. Returns each found cluster's id, in order.
 */
async function saveClusters(tx: Db, found: FoundCluster[], now: Date): Promise<string[]> {
  const rows = found.map((cluster) => ({
    id: randomUUID(),
    kind: cluster.kind,
    key: cluster.key,
    size: cluster.userIds.length,
    summary: cluster.summary,
    evidence: cluster.evidence,
  }));
  const ids = new Map<string, string>();
  for (let from = 0; from < rows.length; from += BATCH) {
    const saved = rowsOf(
      await tx.execute(sql`
        insert into trust_cluster (id, kind, key, size, summary, evidence, computed_at)
        select id, kind, key, size, summary, evidence, ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(rows.slice(from, from + BATCH))}::jsonb) as c(id text, kind text, key text, size int, summary text, evidence jsonb)
        on conflict (kind, key) do update set size = excluded.size, summary = excluded.summary, evidence = excluded.evidence, computed_at = excluded.computed_at
        returning id, kind, key`),
    );
    for (const row of saved) ids.set(`${String(row.kind)}\n${String(row.key)}`, String(row.id));
  }
  const clusterIds = found.map((cluster) => ids.get(`${cluster.kind}\n${cluster.key}`)!);

  await tx.execute(sql`delete from trust_cluster_member`);
  await tx.execute(sql`update trust_cluster set size = 0, computed_at = ${now.toISOString()}::timestamptz
    where id not in (select jsonb_array_elements_text(${JSON.stringify(clusterIds)}::jsonb)) and size <> 0`);
  const members = found.flatMap((cluster, i) => [...new Set(cluster.userIds)].map((userId) => [clusterIds[i]!, userId]));
  for (let from = 0; from < members.length; from += 4 * BATCH)
    await tx.execute(sql`
      insert into trust_cluster_member (cluster_id, user_id)
      select pair->>0, pair->>1 from jsonb_array_elements(${JSON.stringify(members.slice(from, from + 4 * BATCH))}::jsonb) as pair
      on conflict do nothing`);
  return clusterIds;
}

type MemberRow = {
  userId: string;
  email: string;
  createdAt: Date;
  oldestWallet: { chainId: number; firstActivityAt: Date; txCount: number | null } | null;
  fundingUnknown: string | null;
  social: { provider: string; createdAt: Date; followers: number | null } | null;
};

/** Every member with their oldest active wallet, a wallet whose funding could not be read, and their oldest social account. */
async function memberFacts(db: Db): Promise<MemberRow[]> {
  const rows = rowsOf(
    await db.execute(sql`
      with member_wallet as (
        select distinct on (lower(address)) lower(address) as address, user_id from wallet_address order by lower(address), created_at
      ),
      oldest_wallet as (
        select distinct on (m.user_id) m.user_id, p.chain_id, p.first_activity_at, p.tx_count
        from wallet_profile p join member_wallet m on m.address = lower(p.address)
        where p.status = 'known' and p.first_activity_at is not null
        order by m.user_id, p.first_activity_at
      ),
      unknown_funding as (
        select distinct on (m.user_id) m.user_id, coalesce(p.unknown_reason, 'the node could not tell') as reason
        from wallet_profile p join member_wallet m on m.address = lower(p.address)
        where p.status = 'unknown'
        order by m.user_id, p.checked_at desc
      ),
      oldest_social as (
        select distinct on (last_user_id) last_user_id as user_id, provider, account_created_at, followers
        from social_account
        where last_user_id is not null and unlinked_at is null and account_created_at is not null
        order by last_user_id, account_created_at
      )
      select u.id, u.email, u.created_at,
        w.chain_id, w.first_activity_at, w.tx_count, f.reason as unknown_reason,
        s.provider, s.account_created_at, s.followers
      from "user" u
      left join oldest_wallet w on w.user_id = u.id
      left join unknown_funding f on f.user_id = u.id
      left join oldest_social s on s.user_id = u.id`),
  );
  return rows.map((row) => ({
    userId: String(row.id),
    email: String(row.email),
    createdAt: time(row.created_at),
    oldestWallet:
      row.first_activity_at == null
        ? null
        : { chainId: Number(row.chain_id), firstActivityAt: time(row.first_activity_at), txCount: row.tx_count == null ? null : Number(row.tx_count) },
    fundingUnknown: row.unknown_reason == null ? null : String(row.unknown_reason),
    social:
      row.account_created_at == null
        ? null
        : { provider: String(row.provider), createdAt: time(row.account_created_at), followers: row.followers == null ? null : Number(row.followers) },
  }));
}

export type MemberTrust = { score: number; flagged: boolean; reasons: TrustReason[]; computedAt: Date };

/** A member's score and reasons, or null before the first scoring run saw them. */
export async function trustOf({ db, userId }: { db: Db; userId: string }): Promise<MemberTrust | null> {
  const [row] = await db
    .select({ score: trustScore.score, flagged: trustScore.flagged, reasons: trustScore.reasons, computedAt: trustScore.computedAt })
    .from(trustScore)
    .where(eq(trustScore.userId, userId));
  return row ?? null;
}
