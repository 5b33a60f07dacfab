// What the load benchmark sends, and how: the weighted mix of requests (visitors' pages, a signed-in
// member's dashboard, leaderboard reads and quiz answers), the members' sign-in, and one autocannon
// run over a mix with its figures (requests per second, a true p95, errors).

import { createRequire } from "node:module";
import type { LoadData } from "./load-seed.ts";
import { PASSWORD } from "./load-seed.ts";
import { p95, percentile } from "./stats.ts";

type Request = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The mix entry its answer counts under, when not the one that drew it (a quiz answer with no pair left is a dashboard view). */
  countAs?: string;
};
export type MixEntry = { name: string; weight: number; next: () => Request };

/** Autocannon 9's programmatic API, as far as we use it (the package ships no types). */
type AutocannonResult = {
  duration: number;
  errors: number;
  timeouts: number;
  "4xx": number;
  "5xx": number;
  non2xx: number;
  requests: { total: number };
  statusCodeStats: Record<string, { count: number }>;
};
type AutocannonRequest = {
  setupRequest?: (request: Request & { headers: Record<string, string> }, context: Record<string, unknown>) => Request;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
};
type AutocannonRun = PromiseLike<AutocannonResult> & {
  on: (event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void) => void;
};
type Autocannon = (options: { url: string; connections: number; duration: number; timeout?: number; requests?: AutocannonRequest[] }) => AutocannonRun;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const WINDOWS = ["all", "all", "30d", "7d"] as const;
/** Most visitors stay on a board's first page; some page on. */
const boardPage = () => (Math.random() < 0.8 ? 1 : 2 + Math.floor(Math.random() * 20));

/** A member's session: the cookie header their browser would send. */
export type Member = { email: string; cookie: string };

/**
 * Each quiz once per member: attempt k is member k mod M on quiz ⌊k / M⌋, so no attempt is a
 * repeat (which the app would rightly refuse). Shared by every run of the benchmark; when every
 * pair is used, an attempt becomes a dashboard view, and `spent` says how many did.
 */
export function attemptPairs(members: number, quizzes: number) {
  const pairs = {
    next: 0,
    spent: 0,
    take(): { member: number; quiz: number } | null {
      const k = pairs.next++;
      if (k >= members * quizzes) return (pairs.spent++, null);
      return { member: k % members, quiz: Math.floor(k / members) };
    },
  };
  return pairs;
}
export type AttemptPairs = ReturnType<typeof attemptPairs>;

/**
 * The mix, by weight (out of 100): anonymous visitors open Welcome, a live campaign and the
 * boards; signed-in members open the campaign and their dashboard, read boards as the page's
 * script does when they change window or page (`.data`, with their rank and neighbours), and
 * answer a quiz (the task page's form, posted as a browser without script would).
 */
export function loadMix({ data, members, origin, attempts }: { data: LoadData; members: Member[]; origin: string; attempts: AttemptPairs }): MixEntry[] {
  const member = () => pick(members).cookie;
  const campaign = () => pick(data.campaigns);
  const campaignPath = () => {
    const { projectSlug, campaignSlug } = campaign();
    return `/projects/${projectSlug}/campaigns/${campaignSlug}`;
  };
  const dashboard = (): Request => ({ method: "GET", path: "/dashboard", headers: { cookie: member() } });
  return [
    { name: "welcome", weight: 15, next: () => ({ method: "GET", path: "/" }) },
    { name: "campaign", weight: 10, next: () => ({ method: "GET", path: campaignPath() }) },
    { name: "campaign_signed_in", weight: 5, next: () => ({ method: "GET", path: campaignPath(), headers: { cookie: member() } }) },
    {
      name: "leaderboard_page",
      weight: 20,
      next: () => {
        const window = pick(WINDOWS);
        const { projectSlug, campaignSlug } = campaign();
        const path = pick([
          `/leaderboard?window=${window}&page=${boardPage()}`,
          `/projects/${projectSlug}/leaderboard?window=${window}`,
          `/projects/${projectSlug}/campaigns/${campaignSlug}/leaderboard?window=${window}`,
        ]);
        return { method: "GET", path };
      },
    },
    { name: "dashboard", weight: 20, next: dashboard },
    {
      name: "leaderboard_read",
      weight: 20,
      next: () => {
        const window = pick(WINDOWS);
        const path = pick([
          `/leaderboard.data?window=${window}&page=${boardPage()}&_routes=routes%2Fleaderboard`,
          `/projects/${campaign().projectSlug}/leaderboard.data?window=${window}&_routes=routes%2Fprojects%2Fleaderboard`,
        ]);
        return { method: "GET", path, headers: { cookie: member() } };
      },
    },
    {
      name: "task_attempt",
      weight: 10,
      next: () => {
        const pair = attempts.take();
        if (!pair) return { ...dashboard(), countAs: "dashboard" };
        const body = new URLSearchParams({ intent: "answer", answer: data.answer }).toString();
        return {
          method: "POST",
          path: `/tasks/${data.taskIds[pair.quiz]}`,
          headers: { cookie: members[pair.member]!.cookie, origin, "content-type": "application/x-www-form-urlencoded" },
          body,
        };
      },
    },
  ];
}

/** Signs members in with their password through the sign-in form, as the browser does; returns their session cookies. */
export async function signIn(url: string, emails: string[]): Promise<Member[]> {
  const members: Member[] = [];
  // A few at a time: each is a password hash check. Within better-auth's 120 password sign-ins per address in 5 minutes.
  for (let i = 0; i < emails.length; i += 4) {
    const batch = await Promise.all(
      emails.slice(i, i + 4).map(async (email) => {
        const response = await fetch(`${url}/login`, {
          method: "POST",
          redirect: "manual",
          headers: { origin: new URL(url).origin, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ intent: "password", email, password: PASSWORD, redirectTo: "/dashboard" }),
        });
        const cookie = response.headers
          .getSetCookie()
          .map((c) => c.split(";")[0]!)
          .join("; ");
        if (response.status !== 302 || !cookie) throw new Error(`signing ${email} in answered ${response.status} (${(await response.text()).slice(0, 200)})`);
        return { email, cookie };
      }),
    );
    members.push(...batch);
  }
  return members;
}

/** Each entry once: its status and its body's size in bytes (what the bare server's page is sized on). */
export async function probe(url: string, mix: MixEntry[]) {
  const sizes: { name: string; weight: number; status: number; bytes: number }[] = [];
  for (const entry of mix) {
    const request = entry.next();
    const response = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body, redirect: "manual" });
    const bytes = (await response.arrayBuffer()).byteLength;
    sizes.push({ name: entry.name, weight: entry.weight, status: response.status, bytes });
  }
  return sizes;
}

/** The weighted median of the entries' sizes: the size half the mix's requests are at most. */
export function weightedMedianBytes(sizes: { weight: number; bytes: number }[]) {
  const sorted = [...sizes].sort((a, b) => a.bytes - b.bytes);
  const half = sorted.reduce((sum, s) => sum + s.weight, 0) / 2;
  let seen = 0;
  for (const s of sorted) if ((seen += s.weight) >= half) return s.bytes;
  return sorted.at(-1)!.bytes;
}

export type LoadFigures = {
  rps: number;
  p95: number;
  p99: number;
  /** Connection errors and timeouts, and 4xx and 5xx answers; redirects (3xx) are answers like any other. */
  errors: number;
  requests: number;
  statuses: Record<string, number>;
  /** Per mix entry: answers, p95 and answers that were not 2xx or 3xx. */
  byEntry: Map<string, { count: number; times: number[]; failed: number }>;
};

/** One autocannon run: `connections` keep-alive connections for `duration` seconds, each request drawn from the mix by weight. */
export async function runLoad({
  url,
  mix,
  connections,
  duration,
}: {
  url: string;
  mix: MixEntry[] | null;
  connections: number;
  duration: number;
}): Promise<LoadFigures> {
  const bag = (mix ?? []).flatMap((entry) => Array<MixEntry>(entry.weight).fill(entry));
  const times: number[] = [];
  const byEntry = new Map<string, { count: number; times: number[]; failed: number }>();
  // The entry of the answer being recorded: autocannon calls onResponse, then emits `response`, for each answer in turn.
  let answered = "bare";
  const requests: AutocannonRequest[] | undefined = mix
    ? [
        {
          setupRequest: (request, context) => {
            const entry = bag[Math.floor(Math.random() * bag.length)]!;
            const { countAs, ...next } = entry.next();
            context.entry = countAs ?? entry.name;
            return { ...request, ...next, headers: { ...request.headers, ...next.headers } };
          },
          onResponse: (_status, _body, context) => void (answered = String(context.entry)),
        },
      ]
    : undefined;
  const run = autocannon({ url, connections, duration, timeout: 10, requests });
  run.on("response", (_client, status, _bytes, ms) => {
    times.push(ms);
    const stats = byEntry.get(answered) ?? { count: 0, times: [], failed: 0 };
    stats.count++;
    stats.times.push(ms);
    if (status >= 400) stats.failed++;
    byEntry.set(answered, stats);
  });
  const result = await run;
  // Autocannon counts a timeout among its errors as well as in `timeouts`: errors already hold them.
  const errors = result.errors + result["4xx"] + result["5xx"];
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  return {
    rps: result.requests.total / result.duration,
    p95: times.length > 0 ? p95(times) : NaN,
    p99: times.length > 0 ? percentile(times, 0.99) : NaN,
    errors,
    requests: result.requests.total,
    statuses,
    byEntry,
  };
}
