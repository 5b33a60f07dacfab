// The load benchmark's data, on top of the demo: MEMBERS members with XP on the global, project
// and campaign boards (set-based in SQL, the boards' histograms and daily XP built from the same
// events, then checked), members who sign in with a password, and a bench project whose live
// campaign holds quizzes for the benchmark's task attempts (created through the app's own
// functions, as an owner's forms would).

import { sql } from "drizzle-orm";
import { hashPassword } from "better-auth/crypto";
import { openDatabase, rowsOf, type Db } from "../app/lib/db.server.ts";
import { createProject } from "../app/modules/projects/projects.server.ts";
import { saveCampaign } from "../app/modules/tasks/campaigns.server.ts";
import { saveTask } from "../app/modules/tasks/tasks.server.ts";
import { timed } from "./stats.ts";

const DAY = 86_400_000;
export const PASSWORD = "load-bench-password";
const QUIZ_ANSWER = "XP";

export type LoadData = {
  /** The demo's live seasons: what the campaign pages and boards show. */
  campaigns: { projectSlug: string; campaignSlug: string }[];
  /** Members who sign in with PASSWORD. */
  emails: string[];
  /** The quizzes members attempt, and the right answer. */
  taskIds: string[];
  answer: string;
};

export const memberEmail = (i: number) => `load${i}@bench.questline.invalid`;

/**
 * Members `load-1`…`load-N` and their XP: 1 to 8 events each (most members few, a few many), in
 * one of the demo's five projects, over the last 60 days; an event after the project's season
 * started counts on the season's board too (7 in 10). The boards hold only the demo's members
 * before, so every new member's entries are inserted, and the histograms get their counts added.
 */
async function seedMembers(db: Db, members: number) {
  const seasons = rowsOf(
    await db.execute(sql`
      select p.id as project_id, c.id as campaign_id, c.starts_at from campaign c join project p on p.id = c.project_id
      where c.slug like 'season-%' order by p.slug`),
  );
  const projects = sql.join(
    seasons.map(
      (s, i) => sql`(${i + 1}::int, ${String(s.project_id)}, ${String(s.campaign_id)}, ${new Date(s.starts_at as string).toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into "user" (id, name, email, email_verified, created_at, updated_at)
      select 'load-' || i,
             (array['Ada','Satoshi','Vitalik','Mira','Kenji','Lena','Omar','Priya','Jonas','Zoe'])[1 + i % 10] || ' '
               || (array['Byte','Node','Hash','Block','Chain','Stake','Mint','Vault'])[1 + (i / 10) % 8] || ' ' || i,
             'load' || i || '@bench.questline.invalid', true, now() - interval '90 days', now()
      from generate_series(1, ${members}) i`);
    await tx.execute(sql`create temp table load_event on commit drop as
      with m as (select i, 1 + floor(power(random(), 2) * 8)::int as n from generate_series(1, ${members}) i),
           e as (select m.i, g.j, 1 + floor(random() * ${seasons.length})::int as p,
                        (array[10, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200])[1 + floor(random() * 12)::int] as amount,
                        now() - power(random(), 1.5) * interval '60 days' as at, random() as r
                 from m cross join lateral generate_series(1, m.n) g(j))
      select 'load-' || e.i as user_id, s.project_id, case when e.at >= s.starts_at and e.r < 0.7 then s.campaign_id end as campaign_id,
             'load_seed' as source_type, e.i || '.' || e.j as source_id, e.amount, e.at
      from e join (values ${projects}) s(idx, project_id, campaign_id, starts_at) on s.idx = e.p`);
    await tx.execute(sql`insert into xp_event (user_id, project_id, campaign_id, source_type, source_id, amount, created_at)
      select user_id, project_id, campaign_id, source_type, source_id, amount, at from load_event`);
    // What questline_award_xp does per event, for all of them at once: each event counts on the
    // global, project and (when it has one) campaign scope; on a scope's all-time board, and on
    // its 30- and 7-day boards while the event's UTC day is within them.
    await tx.execute(sql`create temp table load_scoped on commit drop as
      select s.scope, e.user_id, e.amount, e.at, (e.at at time zone 'utc')::date as day
      from load_event e cross join lateral unnest(array_remove(array['global', 'p:' || e.project_id, 'c:' || e.campaign_id], null)) s(scope)`);
    await tx.execute(sql`insert into xp_daily (scope, user_id, day, amount)
      select scope, user_id, day, sum(amount) from load_scoped group by scope, user_id, day`);
    await tx.execute(sql`create temp table load_entry on commit drop as
      select scope || '|' || w.w as board, user_id, sum(amount) as score, max(at) as reached_at
      from load_scoped cross join lateral (
        select 'all' union all
        select '30d' where day > (now() at time zone 'utc')::date - 30 union all
        select '7d' where day > (now() at time zone 'utc')::date - 7) w(w)
      group by 1, 2`);
    await tx.execute(sql`insert into leaderboard_entry (board, user_id, score, reached_at, visible)
      select board, user_id, score, reached_at, true from load_entry`);
    await tx.execute(sql`insert into leaderboard_histogram as h (board, score, members)
      select board, score, count(*) from load_entry group by board, score
      on conflict (board, score) do update set members = h.members + excluded.members`);
  });
}

/** Rows where a board's histogram disagrees with its visible entries (0 when every board is exact). */
export async function boardMismatches(db: Db): Promise<number> {
  const [row] = rowsOf(
    await db.execute(sql`
      select count(*) as n from (select board, score, count(*) as members from leaderboard_entry where visible group by board, score) e
      full join leaderboard_histogram h using (board, score)
      where e.members is distinct from h.members`),
  );
  return Number(row?.n ?? -1);
}

/** Members 1…`count` get a password (better-auth's own hash), as if each had set one in Settings. */
async function givePasswords(db: Db, count: number) {
  const hash = await hashPassword(PASSWORD);
  await db.execute(sql`insert into account (id, account_id, provider_id, user_id, password, created_at, updated_at)
    select 'load-credential-' || i, 'load-' || i, 'credential', 'load-' || i, ${hash}, now(), now() from generate_series(1, ${count}) i`);
}

/** The bench project: its owner, a live campaign and `count` quizzes in it (the demo's quiz, answer "XP"). */
async function createQuizzes(db: Db, count: number) {
  const now = new Date();
  await db.execute(sql`insert into "user" (id, name, email, email_verified) values ('load-owner', 'Load Owner', 'owner@bench.questline.invalid', true)`);
  const [category] = rowsOf(await db.execute(sql`select id from category order by slug limit 1`));
  const created = await createProject({
    db,
    userId: "load-owner",
    input: {
      name: "Load Arena",
      slug: "load-arena",
      description: "The load benchmark's quests.",
      categoryId: Number(category!.id),
      website: "https://load.example",
      xUrl: null,
      discordUrl: null,
      telegramUrl: null,
    },
  });
  if (!created.ok) throw new Error("the bench project could not be created");
  const season = await saveCampaign({
    db,
    projectId: created.project.id,
    input: {
      name: "Load Week",
      slug: "load-week",
      description: "Quizzes answered under load.",
      startsAt: new Date(now.getTime() - DAY),
      endsAt: new Date(now.getTime() + 10 * DAY),
      published: true,
    },
    now: new Date(now.getTime() - 2 * DAY),
  });
  if (!season.ok) throw new Error("the bench campaign could not be created");
  const taskIds: string[] = [];
  for (let i = 1; i <= count; i++) {
    const saved = await saveTask({
      db,
      projectId: created.project.id,
      input: {
        title: `Load quiz ${i}`,
        description: "",
        type: "quiz",
        verification: "auto",
        xp: 10 + (i % 5) * 10,
        config: { question: "What does Questline reward members with?", answers: [QUIZ_ANSWER, "experience points"], retryDelaySeconds: 30 },
        recurrence: "once",
        startsAt: null,
        endsAt: null,
        cap: null,
        campaignId: season.value.id,
        published: true,
      },
      now: new Date(now.getTime() - DAY),
    });
    if (!saved.ok) throw new Error("a bench quiz could not be created");
    taskIds.push(saved.task.id);
  }
  return taskIds;
}

/** Adds the load data to a database the demo was seeded into. */
export async function seedLoadData({
  databaseUrl,
  members,
  signedIn,
  quizzes,
}: {
  databaseUrl: string;
  members: number;
  signedIn: number;
  quizzes: number;
}): Promise<LoadData> {
  const database = await openDatabase({ databaseUrl, dataDir: null });
  const { db } = database;
  try {
    await timed(`${members.toLocaleString("en")} members with XP on the boards`, () => seedMembers(db, members));
    await timed(`passwords for ${signedIn} members`, () => givePasswords(db, signedIn));
    const taskIds = await timed(`${quizzes} quizzes in the bench project's campaign`, () => createQuizzes(db, quizzes));
    // As autovacuum soon would on a live database.
    await timed("vacuum and analyze", () => db.execute(sql`vacuum (analyze)`));
    const mismatches = await boardMismatches(db);
    if (mismatches !== 0) throw new Error(`the seeded boards are not exact: ${mismatches} histogram rows disagree with the entries`);
    const campaigns = rowsOf(
      await db.execute(sql`select p.slug as project_slug, c.slug as campaign_slug from campaign c join project p on p.id = c.project_id
        where c.slug like 'season-%' order by p.slug`),
    ).map((r) => ({ projectSlug: String(r.project_slug), campaignSlug: String(r.campaign_slug) }));
    return { campaigns, emails: Array.from({ length: signedIn }, (_, i) => memberEmail(i + 1)), taskIds, answer: QUIZ_ANSWER };
  } finally {
    await database.close();
  }
}

/** Checks the boards after the run (awards under load must have kept them exact); returns the disagreeing rows. */
export async function checkBoards(databaseUrl: string): Promise<{ mismatches: number; attempts: number }> {
  const database = await openDatabase({ databaseUrl, dataDir: null });
  try {
    const [row] = rowsOf(
      await database.db.execute(sql`select count(*) as n from completion c join task t on t.id = c.task_id where t.title like 'Load quiz %'`),
    );
    return { mismatches: await boardMismatches(database.db), attempts: Number(row?.n ?? 0) };
  } finally {
    await database.close();
  }
}
