import pg from "pg";

/**
 * A PostgreSQL pool whose one-shot reads share a few pipelined connections ("lanes").
 *
 * A statement run on the pool outside a transaction (`pool.query`) that reads goes to the lane
 * with the fewest statements in flight. A lane writes every statement it is given in one tick with
 * one system call and PostgreSQL answers them in order without waiting for the next, so a burst of
 * page loads costs a few writes and wake-ups instead of one per statement.
 *
 * Everything else is unchanged: transactions (`pool.connect()`) and writes run on the pool's own
 * connections. Lanes are read-only sessions, so a query that would write all the same (a function
 * that inserts, `nextval`, `for update`, a data-modifying `with`) is refused by PostgreSQL before
 * it does anything and is run on the pool instead; its text is remembered so it goes there
 * directly next time. A lane whose connection fails is dropped, and its statements in flight are
 * run once more on the pool.
 *
 * It stays a `pg.Pool` (its `query` and `end` replaced): Drizzle tells a pool by its class and
 * takes a connection of its own (`connect()`) for each transaction.
 */
export function poolWithReadLanes(
  config: pg.PoolConfig,
  { lanes = 2, onConnectionError = () => {} }: { lanes?: number; onConnectionError?: (error: Error) => void } = {},
): pg.Pool {
  const pool = new pg.Pool(config);
  const poolQuery = keepingConnections(pool);
  if (lanes === 0) return Object.assign(pool, { query: poolQuery as pg.Pool["query"] });
  const open: (Lane | null)[] = Array.from({ length: lanes }, () => null);
  /** Statements PostgreSQL refused on a read-only lane (bounded: texts come from the code, not from requests). */
  const writers = new Set<string>();
  let ended = false;

  const laneAt = (slot: number): Lane => {
    const existing = open[slot];
    if (existing) return existing;
    const lane = new Lane(
      config,
      () => {
        if (open[slot] === lane) open[slot] = null;
      },
      onConnectionError,
    );
    open[slot] = lane;
    return lane;
  };
  /** The lane with the fewest statements in flight (one not yet opened counts as free). */
  const pickLane = (): Lane => {
    let best = 0;
    for (let slot = 0; slot < open.length; slot++) {
      const lane = open[slot];
      if (!lane) return laneAt(slot);
      if (lane.inFlight < open[best]!.inFlight) best = slot;
    }
    return laneAt(best);
  };

  const query = (statement: string | pg.QueryConfig, values?: unknown, callback?: unknown) => {
    const text = typeof statement === "string" ? statement : statement?.text;
    if (ended || callback !== undefined || typeof values === "function" || typeof text !== "string" || !isLaneStatement(text) || writers.has(text)) {
      return poolQuery(statement, values, callback);
    }
    const queryConfig = (typeof statement === "string" ? { text: statement } : statement) as pg.QueryConfig;
    const args = values as unknown[] | undefined;
    const lane = pickLane();
    return lane.query(queryConfig, args).catch((error: unknown) => {
      if ((error as { code?: string }).code === READ_ONLY_VIOLATION) {
        writers.add(text);
        return poolQuery(queryConfig, args);
      }
      if (lane.failed || connectionLost(error)) return poolQuery(queryConfig, args);
      throw error;
    });
  };
  const endPool = pool.end.bind(pool);
  return Object.assign(pool, {
    query: query as pg.Pool["query"],
    end: async () => {
      ended = true;
      await Promise.all(open.map((lane) => lane?.end()));
      await endPool();
    },
  });
}

/**
 * `pool.query`, except that a statement PostgreSQL refused (a unique key taken, a ledger posting
 * refused for funds: an error with a SQLSTATE) leaves its connection in the pool. pg-pool closes
 * the connection of any failed `query`, so each such refusal cost a new server process and its
 * connection set-up (statements prepared again) for the next statement. A connection is still
 * dropped when it was lost or is left inside a transaction (a failed transaction block).
 */
function keepingConnections(pool: pg.Pool) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
  return async (statement: unknown, values?: unknown, callback?: unknown): Promise<pg.QueryResult> => {
    if (callback !== undefined || typeof values === "function") return query(statement, values, callback);
    const client = await pool.connect();
    let spoiled: Error | undefined;
    try {
      return await client.query(statement as pg.QueryConfig, values as unknown[] | undefined);
    } catch (error) {
      if (connectionLost(error) || !(await idleAfterError(client))) spoiled = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.release(spoiled);
    }
  };
}

/**
 * Whether a connection is outside any transaction after a statement failed on it. pg rejects the
 * statement at the server's error message, before the ready-for-query message that tells whether a
 * transaction block was left open (`begin; select 1 / 0`), so the status is read after an empty
 * statement, which waits for that message and runs even in a failed block.
 */
async function idleAfterError(client: pg.PoolClient) {
  try {
    await client.query("");
    return client.getTransactionStatus() === "I";
  } catch {
    return false;
  }
}

/** SQLSTATE 25006: a write attempted in a read-only transaction. */
const READ_ONLY_VIOLATION = "25006";

/**
 * The connection went away under the statement: no SQLSTATE (the socket closed), or one of the
 * classes 08 (connection exception) and 57P (the server shut the session down). A read run again
 * on another connection is safe.
 */
const connectionLost = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  return typeof code !== "string" || code.startsWith("08") || code.startsWith("57P");
};

/**
 * A statement that may run on a lane: a query (`select`, or `with` … `select`) that takes no
 * advisory lock, which a read-only session would still wait on. One that writes all the same is
 * refused by the lane's read-only session.
 */
export const isLaneStatement = (text: string) => /^\s*(select|with)\b/i.test(text) && !/advisory/i.test(text);

/** One pipelined, read-only connection. */
class Lane {
  inFlight = 0;
  failed = false;
  readonly #client: pg.Client;
  readonly #ready: Promise<unknown>;
  #corked = false;

  constructor(config: pg.ClientConfig, drop: () => void, onConnectionError: (error: Error) => void) {
    const options = [config.options, "-c default_transaction_read_only=on"].filter(Boolean).join(" ");
    this.#client = new pg.Client({ ...config, options, pipeline: true });
    const fail = (error?: Error) => {
      this.failed = true;
      drop();
      if (error) onConnectionError(error);
    };
    this.#client.on("error", fail);
    this.#client.on("end", () => fail());
    this.#ready = this.#client.connect();
    // A failed connect is reported to each statement waiting on it.
    this.#ready.catch((error: Error) => fail(error));
  }

  async query(config: pg.QueryConfig, values: unknown[] | undefined): Promise<pg.QueryResult> {
    this.inFlight++;
    try {
      await this.#ready;
      this.#cork();
      return await this.#client.query(config, values);
    } finally {
      this.inFlight--;
    }
  }

  /** Holds the socket's writes until the end of this tick, so the statements of one tick go out together. */
  #cork() {
    if (this.#corked) return;
    const stream = (this.#client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
    this.#corked = true;
    stream.cork();
    process.nextTick(() => {
      this.#corked = false;
      stream.uncork();
    });
  }

  async end() {
    await this.#ready.catch(() => undefined);
    await this.#client.end().catch(() => undefined);
  }
}
