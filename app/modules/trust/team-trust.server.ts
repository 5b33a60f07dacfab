import { sql, type SQL } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { type Db, rowsOf } from "~/lib/db.server";
import { QUEST_DECIMALS, type Asset } from "~/modules/ledger/assets";
import { emailSharedWith, memberIdentities, type MemberIdentity } from "~/modules/projects/member-identity.server";
import { DISTRIBUTION_LABELS, type Distribution } from "~/modules/rewards/pool-types";
import { stakesHere } from "./team-stakes.server";
import type { ClusterKind, ExclusionScope, TrustAuditAction, TrustReason } from "./trust-types";

/**
 * What a project's team reads of its sybil defence: its participants' scores and reasons, the
 * clusters they sit in, one cluster's members with what they did here and what they are about to
 * be paid, and the audit log. Only this project's participants (members with a completion on one
 * of its tasks) are ever named; members of a cluster outside the project are a count.
 */

export const TEAM_TRUST_PAGE_SIZE = 25;
export const PARTICIPANT_FILTERS = ["flagged", "all", "excluded"] as const;
export type ParticipantFilter = (typeof PARTICIPANT_FILTERS)[number];

/** The members with a completion on one of the project's tasks. */
const participantsOf = (projectId: string) =>
  sql`select distinct c.user_id from completion c join task t on t.id = c.task_id where t.project_id = ${projectId}`;
const displayName = sql`coalesce(nullif("user".name, ''), "user".username, 'Member')`;

export type ExclusionTargetOption = { scope: ExclusionScope; scopeId: string; label: string };
export type ExclusionTargets = {
  /** Every pool and airdrop of the project by id, for naming exclusions and audit rows. */
  labels: Map<string, string>;
  /** Where a team may exclude members now: the project, its campaigns' open pools, its airdrops not frozen yet. */
  open: ExclusionTargetOption[];
};

/** The project's pools and airdrops by name, and those a team may exclude members from now. */
export async function exclusionTargets({ db, projectId }: { db: Db; projectId: string }): Promise<ExclusionTargets> {
  const [pools, airdrops] = await Promise.all([
    db.execute(sql`
      select rp.id, rp.status, rp.distribution, c.name as campaign from reward_pool rp join campaign c on c.id = rp.campaign_id
      where c.project_id = ${projectId} order by c.starts_at desc, rp.created_at, rp.id`),
    db.execute(sql`select id, name, status from airdrop where project_id = ${projectId} order by starts_at desc, id`),
  ]);
  const labels = new Map<string, string>();
  const open: ExclusionTargetOption[] = [{ scope: "project", scopeId: projectId, label: "The whole project" }];
  for (const p of rowsOf(pools)) {
    const label = `${String(p.campaign)}: ${DISTRIBUTION_LABELS[p.distribution as Distribution].title} pool`;
    labels.set(String(p.id), label);
    if (p.status === "open") open.push({ scope: "pool", scopeId: String(p.id), label });
  }
  for (const a of rowsOf(airdrops)) {
    const label = `Airdrop ${String(a.name)}`;
    labels.set(String(a.id), label);
    if (a.status === "open") open.push({ scope: "airdrop", scopeId: String(a.id), label });
  }
  return { labels, open };
}

export type LiveExclusion = {
  id: string;
  userId: string;
  scope: ExclusionScope;
  scopeId: string;
  target: string;
  reason: string;
  createdAt: Date;
  clusterId: string | null;
};

async function liveExclusions({ db, projectId, userIds, labels }: { db: Db; projectId: string; userIds: string[]; labels: Map<string, string> }) {
  const byUser = new Map<string, LiveExclusion[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = rowsOf(
    await db.execute(sql`
      select id, user_id, scope, scope_id, reason, created_at, cluster_id from member_exclusion
      where project_id = ${projectId} and lifted_at is null and user_id in ${userIds}
      order by created_at, id`),
  );
  for (const r of rows) {
    const scope = r.scope as ExclusionScope;
    byUser.get(String(r.user_id))?.push({
      id: String(r.id),
      userId: String(r.user_id),
      scope,
      scopeId: String(r.scope_id),
      target: scope === "project" ? "The whole project" : (labels.get(String(r.scope_id)) ?? `A ${scope} no longer listed`),
      reason: String(r.reason),
      createdAt: new Date(r.created_at as string),
      clusterId: r.cluster_id ? String(r.cluster_id) : null,
    });
  }
  return byUser;
}

export type TeamMember = MemberIdentity & {
  userId: string;
  name: string;
  username: string | null;
  image: string | null;
  /** Only where the member shared it with this project. */
  email: string | null;
  /** Null until the trust job has scored the member. */
  score: number | null;
  flagged: boolean;
  reasons: TrustReason[];
  scoredAt: Date | null;
  exclusions: LiveExclusion[];
};

/** The members' identity (what a team may see), score and live exclusions here, in the order of `rows`. */
async function teamMembers({ db, projectId, rows, labels }: { db: Db; projectId: string; rows: Record<string, unknown>[]; labels: Map<string, string> }) {
  const ids = rows.map((r) => String(r.user_id));
  const [identities, exclusions] = await Promise.all([memberIdentities({ db, userIds: ids }), liveExclusions({ db, projectId, userIds: ids, labels })]);
  return rows.map((r): TeamMember => ({
    userId: String(r.user_id),
    name: String(r.name),
    username: r.username ? String(r.username) : null,
    image: r.image ? String(r.image) : null,
    email: r.email ? String(r.email) : null,
    score: r.score == null ? null : Number(r.score),
    flagged: Boolean(r.flagged),
    reasons: (r.reasons as TrustReason[] | null) ?? [],
    scoredAt: r.computed_at ? new Date(r.computed_at as string) : null,
    ...identities.get(String(r.user_id))!,
    exclusions: exclusions.get(String(r.user_id)) ?? [],
  }));
}

/** The columns `teamMembers` reads, for `"user"` joined to its `trust_score ts`. */
const memberColumns = (projectId: string) =>
  sql`"user".id as user_id, ${displayName} as name, "user".username, "user".image, ${emailSharedWith(projectId)} as email,
      ts.score, coalesce(ts.flagged, false) as flagged, coalesce(ts.reasons, '[]'::jsonb) as reasons, ts.computed_at`;

/** One page of the project's participants: flagged first, then the lowest score (unscored last). */
export async function projectParticipants({
  db,
  projectId,
  filter,
  page,
  targets,
}: {
  db: Db;
  projectId: string;
  filter: ParticipantFilter;
  page: number;
  /** The project's exclusion targets when the caller has read them already. */
  targets?: ExclusionTargets;
}) {
  const where: Record<ParticipantFilter, SQL> = {
    all: sql`true`,
    flagged: sql`coalesce(ts.flagged, false)`,
    excluded: sql`exists (select 1 from member_exclusion me where me.project_id = ${projectId} and me.user_id = "user".id and me.lifted_at is null)`,
  };
  const [rows, { labels }] = await Promise.all([
    db
      .execute(
        sql`
        with participants as (${participantsOf(projectId)})
        select ${memberColumns(projectId)}, count(*) over () as total
        from participants p join ${user} on "user".id = p.user_id left join trust_score ts on ts.user_id = "user".id
        where ${where[filter]}
        order by coalesce(ts.flagged, false) desc, ts.score asc nulls last, "user".id
        limit ${TEAM_TRUST_PAGE_SIZE} offset ${(page - 1) * TEAM_TRUST_PAGE_SIZE}`,
      )
      .then(rowsOf),
    targets ?? exclusionTargets({ db, projectId }),
  ]);
  const total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  return {
    rows: await teamMembers({ db, projectId, rows, labels }),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / TEAM_TRUST_PAGE_SIZE)),
    hasMore: page * TEAM_TRUST_PAGE_SIZE < total,
  };
}

export type ProjectCluster = { id: string; kind: ClusterKind; summary: string; size: number; participants: number; excluded: number; computedAt: Date };

/** The clusters holding at least one of the project's participants, the most participants first. `excluded`: those with a live exclusion here. */
export async function projectClusters({ db, projectId }: { db: Db; projectId: string }): Promise<ProjectCluster[]> {
  const rows = rowsOf(
    await db.execute(sql`
      with participants as (${participantsOf(projectId)})
      select tc.id, tc.kind, tc.summary, tc.size, tc.computed_at, count(*) as participants,
        count(*) filter (where exists (select 1 from member_exclusion me where me.project_id = ${projectId} and me.user_id = m.user_id and me.lifted_at is null)) as excluded
      from trust_cluster tc join trust_cluster_member m on m.cluster_id = tc.id join participants p on p.user_id = m.user_id
      group by tc.id
      order by count(*) desc, tc.size desc, tc.id`),
  );
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind as ClusterKind,
    summary: String(r.summary),
    size: Number(r.size),
    participants: Number(r.participants),
    excluded: Number(r.excluded),
    computedAt: new Date(r.computed_at as string),
  }));
}

/** A cluster's participants listed at most (flagged first, then the lowest score); Exclude all reaches every one. */
export const CLUSTER_MEMBERS_SHOWN = 100;

export type ClusterCompletions = { count: number; approved: number; first: Date; last: Date; tasks: { id: string; title: string; count: number }[] };
export type ClusterMember = TeamMember & { completions: ClusterCompletions; stake: string[] };

/**
 * One cluster as the project's team sees it: its shared evidence, its members who take part in
 * this project (with their completions here and what they are about to be paid here) and, as a
 * number only, how many members it has elsewhere. Null when no participant of the project is in it.
 */
export async function clusterView({
  db,
  projectId,
  clusterId,
  now = new Date(),
  decimalsOf = () => QUEST_DECIMALS,
  targets,
}: {
  db: Db;
  projectId: string;
  clusterId: string;
  now?: Date;
  /** A token asset's decimals, to say token amounts (the chain registry knows them). */
  decimalsOf?: (asset: Asset) => number;
  targets?: ExclusionTargets;
}) {
  const [cluster] = rowsOf(await db.execute(sql`select id, kind, key, size, summary, evidence, computed_at from trust_cluster where id = ${clusterId}`));
  if (!cluster) return null;
  const rows = rowsOf(
    await db.execute(sql`
      with participants as (${participantsOf(projectId)})
      select ${memberColumns(projectId)}, count(*) over () as here
      from trust_cluster_member m join participants p on p.user_id = m.user_id join ${user} on "user".id = m.user_id
      left join trust_score ts on ts.user_id = m.user_id
      where m.cluster_id = ${clusterId}
      order by coalesce(ts.flagged, false) desc, ts.score asc nulls last, "user".id
      limit ${CLUSTER_MEMBERS_SHOWN}`),
  );
  if (rows.length === 0) return null;
  const here = Number(rows[0]!.here);
  const [{ total }] = rowsOf(await db.execute(sql`select count(*) as total from trust_cluster_member where cluster_id = ${clusterId}`)) as [{ total: unknown }];
  const { labels, open } = targets ?? (await exclusionTargets({ db, projectId }));
  const members = await teamMembers({ db, projectId, rows, labels });
  const ids = members.map((m) => m.userId);
  const [completions, stakes] = await Promise.all([
    completionsHere({ db, projectId, userIds: ids }),
    stakesHere({ db, projectId, userIds: ids, now, decimalsOf }),
  ]);
  const visible = new Set(ids);
  return {
    cluster: {
      id: String(cluster.id),
      kind: cluster.kind as ClusterKind,
      summary: String(cluster.summary),
      size: Number(cluster.size),
      computedAt: new Date(cluster.computed_at as string),
      evidence: evidenceShown(cluster.evidence, visible),
    },
    members: members.map((m): ClusterMember => ({
      ...m,
      completions: completions.get(m.userId) ?? { count: 0, approved: 0, first: now, last: now, tasks: [] },
      stake: stakes.get(m.userId) ?? [],
    })),
    /** The cluster's participants here; the first `CLUSTER_MEMBERS_SHOWN` of them are in `members`. */
    here,
    /** Members of the cluster who are not participants of this project: a number, never who. */
    outside: Math.max(0, Number(total) - here),
    targets: open,
  };
}

/**
 * The cluster's evidence without what names members the team may not see: an object carrying a
 * member's id (`userId`, `user_id`) outside `visible` is left out, as is any list of member ids.
 */
export function evidenceShown(evidence: unknown, visible: Set<string>): unknown {
  if (Array.isArray(evidence)) return evidence.map((e) => evidenceShown(e, visible)).filter((e) => e !== undefined);
  if (evidence && typeof evidence === "object") {
    const entries = Object.entries(evidence as Record<string, unknown>);
    const owner = entries.find(([k]) => k === "userId" || k === "user_id")?.[1];
    if (typeof owner === "string" && !visible.has(owner)) return undefined;
    const kept: Record<string, unknown> = {};
    for (const [k, v] of entries) {
      if (/^(userIds|user_ids|members)$/.test(k) && Array.isArray(v)) continue;
      const shown = evidenceShown(v, visible);
      if (shown !== undefined) kept[k] = shown;
    }
    return kept;
  }
  return evidence;
}

/** Each member's completions on the project's tasks: how many, approved, the first and last, by task. */
async function completionsHere({ db, projectId, userIds }: { db: Db; projectId: string; userIds: string[] }) {
  const rows = rowsOf(
    await db.execute(sql`
      select c.user_id, t.id as task_id, t.title, count(*) as count, count(*) filter (where c.status = 'approved') as approved,
        min(c.created_at) as first, max(c.created_at) as last
      from completion c join task t on t.id = c.task_id
      where t.project_id = ${projectId} and c.user_id in ${userIds}
      group by c.user_id, t.id, t.title
      order by c.user_id, min(c.created_at), t.id`),
  );
  const found = new Map<string, ClusterCompletions>();
  for (const r of rows) {
    const first = new Date(r.first as string);
    const last = new Date(r.last as string);
    const entry = found.get(String(r.user_id)) ?? { count: 0, approved: 0, first, last, tasks: [] };
    entry.count += Number(r.count);
    entry.approved += Number(r.approved);
    if (first < entry.first) entry.first = first;
    if (last > entry.last) entry.last = last;
    entry.tasks.push({ id: String(r.task_id), title: String(r.title), count: Number(r.count) });
    found.set(String(r.user_id), entry);
  }
  return found;
}

export type AuditRow = {
  id: string;
  action: TrustAuditAction;
  actor: string | null;
  subject: string | null;
  subjectId: string | null;
  clusterId: string | null;
  target: string | null;
  reason: string;
  createdAt: Date;
};

/** One page of the project's trust audit log, newest first, with who acted and on whom by name. */
export async function projectTrustAudit({ db, projectId, page, targets }: { db: Db; projectId: string; page: number; targets?: ExclusionTargets }) {
  const [rows, { labels }] = await Promise.all([
    db
      .execute(
        sql`
      select a.id, a.action, a.subject_id, a.cluster_id, a.scope, a.scope_id, a.reason, a.created_at,
        case when actor.id is null then null else coalesce(nullif(actor.name, ''), actor.username, 'an unnamed member') end as actor, coalesce(nullif(subject.name, ''), subject.username, 'Member') as subject,
        count(*) over () as total
      from trust_audit a left join "user" actor on actor.id = a.actor_id left join "user" subject on subject.id = a.subject_id
      where a.project_id = ${projectId}
      order by a.created_at desc, a.id desc
      limit ${TEAM_TRUST_PAGE_SIZE} offset ${(page - 1) * TEAM_TRUST_PAGE_SIZE}`,
      )
      .then(rowsOf),
    targets ?? exclusionTargets({ db, projectId }),
  ]);
  const total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  return {
    rows: rows.map((r): AuditRow => ({
      id: String(r.id),
      action: r.action as TrustAuditAction,
      actor: r.actor ? String(r.actor) : null,
      subject: r.subject_id ? String(r.subject) : null,
      subjectId: r.subject_id ? String(r.subject_id) : null,
      clusterId: r.cluster_id ? String(r.cluster_id) : null,
      target: r.scope === "project" ? "The whole project" : r.scope_id ? (labels.get(String(r.scope_id)) ?? null) : null,
      reason: String(r.reason),
      createdAt: new Date(r.created_at as string),
    })),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / TEAM_TRUST_PAGE_SIZE)),
    hasMore: page * TEAM_TRUST_PAGE_SIZE < total,
  };
}
