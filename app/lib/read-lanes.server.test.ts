import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "#tests/setup/test-db";
import { isLaneStatement, poolWithReadLanes } from "./read-lanes.server";

it("sends queries to the lanes, and statements that take advisory locks or write to the pool", () => {
  expect(isLaneStatement("select 1")).toBe(true);
  expect(isLaneStatement("  SELECT * from t")).toBe(true);
  expect(isLaneStatement("with page as (select 1) select * from page")).toBe(true);
  expect(isLaneStatement("select pg_advisory_xact_lock(1)")).toBe(false);
  expect(isLaneStatement("insert into t values (1)")).toBe(false);
  expect(isLaneStatement("update t set a = 1")).toBe(false);
  expect(isLaneStatement("selection")).toBe(false);
});

describe.skipIf(!process.env.DATABASE_URL)("a pool with read lanes, on PostgreSQL", () => {
  let database: { url: string; drop: () => Promise<void> };
  const admin = async <T extends pg.QueryResultRow>(statement: string, values?: unknown[]) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<T>(statement, values)).rows;
    } finally {
      await client.end();
    }
  };
  const open = (errors: Error[] = []) =>
    poolWithReadLanes(
      { connectionString: database.url, max: 4, application_name: "lanes-test" },
      { lanes: 2, onConnectionError: (error) => errors.push(error) },
    );
  const pidsOf = async (pool: pg.Pool) => {
    const rows = await Promise.all(Array.from({ length: 20 }, () => pool.query<{ pid: number }>("select pg_backend_pid() as pid")));
    return new Set(rows.map((r) => r.rows[0]!.pid));
  };

  beforeAll(async () => {
    database = await createPostgresDatabase(process.env.DATABASE_URL!);
    await admin("create table thing (id serial primary key, n int not null)");
  });
  afterAll(() => database.drop());

  it("runs one-shot reads on two read-only connections, and transactions on the pool's own", async () => {
    const pool = open();
    try {
      const { rows } = await pool.query<{ ro: string }>("select current_setting('transaction_read_only') as ro");
      expect(rows[0]!.ro).toBe("on");
      expect((await pidsOf(pool)).size).toBe(2);
      const client = await pool.connect();
      try {
        await client.query("begin");
        await client.query("insert into thing (n) values (1)");
        expect((await client.query<{ ro: string }>("select current_setting('transaction_read_only') as ro")).rows[0]!.ro).toBe("off");
        await client.query("rollback");
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it("answers each statement of a burst with its own rows, named statements included", async () => {
    const pool = open();
    try {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          i % 2
            ? pool.query<{ n: number }>("select $1::int as n", [i])
            : pool.query<{ n: number }>({ name: "plus-one", text: "select $1::int + 1 as n", values: [i] }),
        ),
      );
      expect(answers.map((a) => a.rows[0]!.n)).toEqual(Array.from({ length: 300 }, (_, i) => (i % 2 ? i : i + 1)));
    } finally {
      await pool.end();
    }
  });

  it("fails only the statement that fails, not the ones sent with it", async () => {
    const pool = open();
    try {
      const results = await Promise.allSettled([pool.query("select 1 as n"), pool.query("select 1 / 0 as n"), pool.query("select 3 as n")]);
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect(((results[1] as PromiseRejectedResult).reason as { code: string }).code).toBe("22012");
      expect((results[2] as PromiseFulfilledResult<pg.QueryResult>).value.rows).toEqual([{ n: 3 }]);
    } finally {
      await pool.end();
    }
  });

  it("runs a query that writes on the pool, once", async () => {
    const pool = open();
    try {
      await admin("truncate thing");
      const insert = "with added as (insert into thing (n) values ($1) returning n) select n from added";
      expect((await pool.query(insert, [7])).rows).toEqual([{ n: 7 }]);
      // The second time it goes to the pool directly.
      expect((await pool.query(insert, [8])).rows).toEqual([{ n: 8 }]);
      expect((await pool.query("select nextval('thing_id_seq') > 0 as next")).rows).toEqual([{ next: true }]);
      expect((await pool.query("select n from thing where n = 7 for update")).rows).toEqual([{ n: 7 }]);
      expect(await admin("select n from thing order by n")).toEqual([{ n: 7 }, { n: 8 }]);
    } finally {
      await pool.end();
    }
  });

  it("keeps the connection of a write PostgreSQL refused, and drops one left in a failed transaction", async () => {
    for (const lanes of [0, 2]) {
      const pool = poolWithReadLanes({ connectionString: database.url, max: 1, application_name: "lanes-test" }, { lanes });
      try {
        const pid = async () => (await pool.query<{ pid: number }>("insert into thing (n) values (0) returning pg_backend_pid() as pid")).rows[0]!.pid;
        const before = await pid();
        await expect(pool.query("insert into thing (id, n) values ($1, 1), ($1, 2)", [-lanes - 1])).rejects.toMatchObject({ code: "23505" });
        expect(await pid()).toBe(before);
        await expect(pool.query("begin; select 1 / 0")).rejects.toMatchObject({ code: "22012" });
        expect(await pid()).not.toBe(before);
      } finally {
        await pool.end();
      }
    }
  });

  it("replaces a lane whose connection is cut, and runs its statements in flight on the pool", async () => {
    const errors: Error[] = [];
    const pool = open(errors);
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      const before = await pidsOf(pool);
      // Statements held in flight on the lanes: they wait for the table's lock.
      await locker.query("begin");
      await locker.query("lock table thing in access exclusive mode");
      const waiting = Array.from({ length: 6 }, (_, i) => pool.query<{ i: number }>("select $1::int as i, count(*) from thing", [i]));
      await expect
        .poll(() => admin("select count(*)::int as n from pg_stat_activity where application_name = 'lanes-test' and wait_event_type = 'Lock'"))
        .toEqual([{ n: 2 }]);
      await admin("select pg_terminate_backend(pid) from pg_stat_activity where pid = any($1)", [[...before]]);
      await expect.poll(() => errors.length).toBeGreaterThan(0);
      await locker.query("commit");
      expect((await Promise.all(waiting)).map((r) => r.rows[0]!.i)).toEqual([0, 1, 2, 3, 4, 5]);
      const after = await pidsOf(pool);
      expect(after.size).toBe(2);
      expect([...after].some((pid) => before.has(pid))).toBe(false);
    } finally {
      await locker.end();
      await pool.end();
    }
  });

  it("closes its lanes when it ends", async () => {
    const pool = open();
    await pidsOf(pool);
    await pool.end();
    await expect.poll(() => admin("select count(*)::int as n from pg_stat_activity where application_name = 'lanes-test'")).toEqual([{ n: 0 }]);
  });
});
