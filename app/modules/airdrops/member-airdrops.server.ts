import { sql } from "drizzle-orm";
import { getAddress } from "viem";
import { rowsOf, type Db } from "~/lib/db.server";
import type { AirdropClaimRecord, AirdropShare, MemberAirdrop, MemberAirdropGroup, MissedReason } from "./airdrop-pages";
import { airdropPhase, claimDeadlineOf, type AirdropRoundStep, type RoundInput } from "./airdrop-phase";
import type { AirdropRule, AirdropStatus } from "./airdrop-types";

/** The most airdrops the Airdrop page lists for one member. */
const LIMIT = 200;

/**
 * Every published airdrop the member took part in (points on its board, or a frozen share), with
 * their rank on a running one's board, their share, its claim and the round, in one query: each
 * airdrop meets the member's rows by their keys, never a whole board or allocation. Grouped for
 * the Airdrop page (see `MemberAirdrop`), most recent first.
 */
export async function memberAirdrops({ db, userId, now = new Date() }: { db: Db; userId: string; now?: Date }): Promise<MemberAirdrop[]> {
  const result = await db.execute(sql`
    select a.*, p.slug as project_slug, p.name as project_name, p.logo_url as project_logo,
      (select count(*) from task t where t.airdrop_id = a.id and t.published_at is not null) as tasks,
      e.score as board_points,
      -- The exact rank as rankOf has it: the histogram above the member, then those who reached their score first.
      case when e.user_id is not null then 1
        + coalesce((select sum(h.members) from leaderboard_histogram h where h.board = e.board and h.score > e.score), 0)
        + (select count(*) from leaderboard_entry x where x.board = e.board and x.visible and x.score = e.score
             and (x.reached_at, x.user_id) < (e.reached_at, e.user_id)) end as board_rank,
      al.user_id as share_user, al.rank as share_rank, al.points as share_points, al.amount as share_amount, al.account as share_account, al.leaf as share_leaf,
      r.step as round_step, r.deadline as round_deadline,
      c.tx_hash as claim_tx, c.chain_id as claim_chain, c.claimed_at as claim_at,
      exists (select 1 from project_member m where m.project_id = a.project_id and m.user_id = ${userId}) as on_team
    from airdrop a
    join project p on p.id = a.project_id
    left join leaderboard_entry e on e.board = 'a:' || a.id || '|all' and e.user_id = ${userId}
    left join airdrop_allocation al on al.airdrop_id = a.id and al.user_id = ${userId}
    left join airdrop_round r on r.airdrop_id = a.id
    left join airdrop_claim c on c.airdrop_id = a.id and c.leaf = al.leaf
    where a.published_at is not null and (e.user_id is not null or al.user_id is not null)
    order by coalesce(a.frozen_at, a.ends_at) desc, a.id
    limit ${LIMIT}`);
  return rowsOf(result).map((r) => memberAirdrop(r, now));
}

const date = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function memberAirdrop(r: Record<string, unknown>, now: Date): MemberAirdrop {
  const base = {
    status: r.status as AirdropStatus,
    publishedAt: r.published_at === null ? null : date(r.published_at),
    startsAt: date(r.starts_at),
    endsAt: date(r.ends_at),
    claimDeadline: date(r.claim_deadline),
  };
  const round: RoundInput = r.round_step ? { step: r.round_step as AirdropRoundStep, deadline: Number(r.round_deadline) } : null;
  const claim: AirdropClaimRecord | null = r.claim_tx ? { txHash: String(r.claim_tx), chainId: Number(r.claim_chain), claimedAt: date(r.claim_at) } : null;
  const share: AirdropShare | null = r.share_user
    ? {
        rank: Number(r.share_rank),
        points: Number(r.share_points),
        amount: BigInt(String(r.share_amount)),
        account: r.share_account === null ? null : getAddress(String(r.share_account)),
        leaf: num(r.share_leaf),
        claim,
      }
    : null;
  const phase = airdropPhase(base, round, now);
  const minPoints = Number(r.min_points);
  const { group, missed } = groupOf({ phase, share, boardPoints: num(r.board_points), minPoints, onTeam: r.on_team === true || r.on_team === "t" });
  return {
    id: String(r.id),
    slug: String(r.slug),
    name: String(r.name),
    description: String(r.description),
    asset: String(r.asset),
    total: BigInt(String(r.total)),
    rule: r.rule as AirdropRule,
    ranks: Array.isArray(r.rank_amounts) ? r.rank_amounts.length : null,
    phase,
    startsAt: base.startsAt,
    endsAt: base.endsAt,
    claimDeadline: claimDeadlineOf(base, round),
    tasks: Number(r.tasks),
    project: { slug: String(r.project_slug), name: String(r.project_name), logoUrl: r.project_logo === null ? null : String(r.project_logo) },
    group,
    points: share ? share.points : num(r.board_points),
    rank: share ? share.rank : num(r.board_rank),
    share,
    minPoints,
    missed,
  };
}

/** Which group of the Airdrop page an airdrop of the member's falls in, and why it was missed. */
export function groupOf({
  phase,
  share,
  boardPoints,
  minPoints,
  onTeam,
}: {
  phase: MemberAirdrop["phase"];
  share: AirdropShare | null;
  boardPoints: number | null;
  minPoints: number;
  onTeam: boolean;
}): { group: MemberAirdropGroup; missed: MissedReason | null } {
  if (phase === "draft" || phase === "upcoming" || phase === "live" || phase === "ended") return { group: "eligible", missed: null };
  if (!share) {
    // On the board at the freeze but no share: below the minimum, or on the project's own team.
    return { group: "missed", missed: onTeam && (boardPoints ?? 0) >= Math.max(1, minPoints) ? "team" : "below_minimum" };
  }
  if (share.claim) return { group: "claimed", missed: null };
  if (share.leaf === null) return { group: "missed", missed: "no_wallet" };
  if (phase === "failed") return { group: "missed", missed: "not_opened" };
  if (phase === "previous_chain") return { group: "missed", missed: "previous_chain" };
  if (phase === "claimable") return { group: "claimable", missed: null };
  if (phase === "frozen") return { group: "waiting", missed: null };
  return { group: "missed", missed: "deadline" };
}
