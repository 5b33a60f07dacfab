// The sybil benchmark's population (bench/sybil.ts, decision 059): honest members and farms, drawn
// from one seeded generator (mulberry32), as plain rows for the database and the funding plan for
// the chain. Every figure below is per "scale" 1; the 100,000-member run scales the farms.
//
// Honest members (HONEST, 3,000 by default):
//   - sign-up over the 30 days before NOW; 70 % from a network of their own, 25 % from 40 busy
//     shared networks (ISPs, cafés), 5 % in households of 2–4 within a day;
//   - a wallet for 85 %: funded by one of 12 exchanges (shared funders) 60 %, by a funder of their
//     own 25 %, by a funder shared with 1–2 friends 10 %, by a friend member's wallet 5 %; 3 % of the
//     wallets' funding unknown (no history on the node; direct profiles only);
//   - 2–12 of 20 tasks in 1–3 sessions (tasks 10–120 s apart, in a random order), 5 % starting in
//     the launch hour; written answers drawn from a 240-word vocabulary (6–18 words), 10 % short
//     ones ("gm", "love this project"), quiz answers all equal, links their own;
//   - 120 referrers of 1–8 referees who go on to do tasks, and one influencer of 40 referees,
//     15 of whom did nothing yet;
//   - an X account for 30 % (0.1–8 years old, 0–5,000 followers).
// Farms (at scale 1):
//   - fan_out: 2 farms, one funder → 50–300 wallets (one of them sweeps back to one collector);
//   - funder_chain: 2 chains root → w1 → w2 → … of 40 and 60 wallets;
//   - network: 30 accounts from one network in one hour; 60 over 12 hours (10 per 2 hours);
//   - synchronized: 2 farms of 25 accounts doing the same 5 tasks 0–4 s apart;
//   - referral_ring: 2 referrers of 20 and 35 fresh accounts that do at most one task;
//   - mixed: fan_out (60 wallets) + synchronized; funder_chain (20) + referral ring.
// Farm accounts otherwise look honest: their own networks, exchange-funded wallets (network,
// synchronized, referral farms), 2–6 tasks at spread times with answers of their own.

export const NOW = new Date("2027-06-01T12:00:00Z");
const DAY = 86_400_000;
const H = 3_600_000;
/** The launch hour of the campaign: many members start then. */
const LAUNCH = NOW.getTime() - 20 * DAY;

export const FARM_KINDS = ["fan_out", "funder_chain", "network", "synchronized", "referral_ring", "mixed"] as const;
export type FarmKind = (typeof FARM_KINDS)[number];

export type Member = { id: string; email: string; createdAt: Date; farm: FarmKind | null };
export type Wallet = { userId: string; address: string };
/** A wallet's funding and sweep, as the chain would show them (`depth`: how many member wallets lie between it and the root). */
export type Funding = { wallet: string; funder: string; depth: number; amountMilli: number; fundedAt: Date; sweptTo: string | null; unknown: boolean };
export type Task = { id: string; type: "quiz" | "submit_text" | "submit_url" | "visit_link" | "x_follow" };
export type Done = { userId: string; taskId: string; at: Date; submission: Record<string, unknown> };
export type Population = {
  members: Member[];
  wallets: Wallet[];
  funding: Funding[];
  /** The funders no member wallet is: they get their coin from `anvil_setBalance`. */
  roots: string[];
  exchanges: string[];
  signUps: { userId: string; network: string; at: Date }[];
  tasks: Task[];
  done: Done[];
  referrals: { referrer: string; referred: string; at: Date }[];
  socials: { userId: string; createdAt: Date; followers: number }[];
};

/** mulberry32: a small, seeded, reproducible generator of floats in [0, 1). */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join("");
  const shuffle = <T>(list: T[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };
  return { next, int, pick, hex, shuffle };
}

const WORDS = (
  "able about across active actually after again agree airdrop almost also always amazing among answer any anyone app around asset " +
  "aware back balance bank because become before believe best better between beyond block bridge build builder but buy call can " +
  "chain change cheap clear code coin collect come community connect content core could create cross daily data decent deep " +
  "defi design different direction easy ecosystem else energy enough every exactly expect fair fast fee feel first focus follow " +
  "friend future game gas give good governance great grow guide happy hard help here high hold honest hope idea impact important " +
  "interest invest join just keep kind know later layer learn less life like liquidity long look love make many market maybe mean " +
  "member mint model month more most move much need network never new next nice node now offer only open other own part people " +
  "plan platform point pool power price project protocol proof quest quick rather read real reason reward right risk road safe " +
  "same scale secure see seem send serious service share simple since small smart solid some soon speed stake start still strong " +
  "support sure swap system take team tech than that their then there thing think this through time token tool trade trust try " +
  "use useful user value very vision vote wait wallet want watch web week well what when where which while why will with work world year yield"
).split(" ");

/** The population for `seed`: HONEST members and the farms `scale` times over. */
export function population({ seed, honest, scale }: { seed: number; honest: number; scale: number }): Population {
  const r = seeded(seed);
  const address = () => `0x${r.hex(40)}`;
  const pop: Population = { members: [], wallets: [], funding: [], roots: [], exchanges: [], signUps: [], tasks: [], done: [], referrals: [], socials: [] };
  const roots = new Set<string>();
  pop.exchanges = Array.from({ length: 12 }, address);
  const taskTypes = [
    "quiz",
    "quiz",
    "quiz",
    "quiz",
    "submit_text",
    "submit_text",
    "submit_text",
    "submit_text",
    "submit_url",
    "submit_url",
    "submit_url",
  ] as const;
  pop.tasks = Array.from({ length: 20 }, (_, i) => ({ id: `task-${i}`, type: taskTypes[i] ?? (i < 16 ? "visit_link" : "x_follow") }));
  const busyNetworks = Array.from({ length: 40 }, () => `net-${r.hex(12)}`);

  let n = 0;
  const member = (farm: FarmKind | null, createdAt: Date) => {
    const id = `${farm ? "f" : "h"}${String(n++).padStart(7, "0")}`;
    pop.members.push({ id, email: `${id}@bench.invalid`, createdAt, farm });
    return id;
  };
  const signUp = (userId: string, network: string, at: Date) => pop.signUps.push({ userId, network, at });
  const fund = (userId: string, funder: string, fundedAt: Date, { depth = 0, sweptTo = null as string | null, unknown = false, amountMilli = 50 } = {}) => {
    const wallet = address();
    pop.wallets.push({ userId, address: wallet });
    pop.funding.push({ wallet, funder, depth, amountMilli, fundedAt, sweptTo, unknown });
    return wallet;
  };
  const root = () => {
    const a = address();
    roots.add(a);
    return a;
  };
  const answer = () => {
    if (r.next() < 0.1) return r.pick(["gm", "love this project", "great team", "wagmi", "to the moon", "nice"]);
    return Array.from({ length: r.int(6, 18) }, () => r.pick(WORDS)).join(" ");
  };
  const submission = (task: Task, userId: string): Record<string, unknown> => {
    if (task.type === "quiz") return { answer: "Proof of stake" };
    if (task.type === "submit_text") return { text: answer() };
    if (task.type === "submit_url") return { url: `https://x.com/${userId}/status/${r.int(1e9, 9e9)}${r.hex(6)}` };
    if (task.type === "visit_link") return { visitedAt: "" };
    return {};
  };
  /** Tasks in 1–3 sessions starting at or after `from`, 10–120 s apart within a session. */
  const doTasks = (userId: string, count: number, from: number, launch = false) => {
    const tasks = r.shuffle([...pop.tasks]).slice(0, count);
    const sessions = r.int(1, 3);
    const session = () => from + r.next() * Math.max(H, NOW.getTime() - from - 2 * H);
    let at = launch ? LAUNCH + r.next() * H : session();
    tasks.forEach((task, i) => {
      if (i > 0 && i % Math.ceil(tasks.length / sessions) === 0) at = session();
      else at += r.int(10, 120) * 1000;
      pop.done.push({ userId, taskId: task.id, at: new Date(at), submission: submission(task, userId) });
    });
  };
  const signUpTime = () => NOW.getTime() - 30 * DAY + r.next() * 29 * DAY;

  // Honest members.
  const honestIds: string[] = [];
  const friendFunders: { funder: string; left: number }[] = [];
  /** Wallets a funder of their own paid, which may fund one friend's wallet in turn. */
  const ownFunded: string[] = [];
  for (let i = 0; i < honest; i++) {
    const created = signUpTime();
    const id = member(null, new Date(created));
    honestIds.push(id);
    const where = r.next();
    if (where < 0.7) signUp(id, `net-${r.hex(12)}`, new Date(created));
    else if (where < 0.95) signUp(id, r.pick(busyNetworks), new Date(created));
    else {
      // A household: this member and 1–3 others within a day.
      const home = `net-${r.hex(12)}`;
      signUp(id, home, new Date(created));
      for (let k = r.int(1, 3); k > 0 && i + 1 < honest; k--, i++) {
        const at = created + r.next() * DAY;
        const other = member(null, new Date(at));
        honestIds.push(other);
        signUp(other, home, new Date(at));
      }
    }
  }
  for (const id of honestIds) {
    const created = pop.members[Number(id.slice(1))]!.createdAt.getTime();
    const fundedAt = new Date(created + r.next() * DAY);
    const source = r.next();
    if (source < 0.15) {
      /* no wallet */
    } else if (source < 0.66) fund(id, r.pick(pop.exchanges), fundedAt, { unknown: r.next() < 0.03 });
    else if (source < 0.87) {
      const unknown = r.next() < 0.03;
      const wallet = fund(id, root(), fundedAt, { unknown });
      if (!unknown) ownFunded.push(wallet);
    } else if (source < 0.96) {
      // Friends sharing one funder, in twos or threes.
      let shared = friendFunders.find((f) => f.left > 0);
      if (!shared || r.next() < 0.4) friendFunders.push((shared = { funder: root(), left: r.int(1, 2) }));
      else shared.left--;
      fund(id, shared.funder, fundedAt);
    } else {
      // Funded by a friend's own linked wallet (which a funder of its own paid).
      const friend = ownFunded.pop();
      fund(id, friend ?? root(), fundedAt, { depth: friend ? 1 : 0, amountMilli: 20 });
    }
    doTasks(id, r.int(2, 12), created, r.next() < 0.05);
    if (r.next() < 0.3) pop.socials.push({ userId: id, createdAt: new Date(NOW.getTime() - r.int(36, 2900) * DAY), followers: r.int(0, 5000) });
  }
  // Honest referrers: their referees do tasks; one influencer, some of whose referees did nothing yet.
  const pool = r.shuffle([...honestIds]);
  let p = 0;
  for (let i = 0; i < 120 && p < pool.length - 10; i++) {
    const referrer = pool[p++]!;
    for (let k = r.int(1, 8); k > 0; k--) {
      const referred = pool[p++]!;
      pop.referrals.push({ referrer, referred, at: pop.members[Number(referred.slice(1))]!.createdAt });
    }
  }
  {
    const influencer = pool[p]!;
    for (let k = 0; k < 40; k++) {
      const at = signUpTime();
      const referred = member(null, new Date(at));
      signUp(referred, `net-${r.hex(12)}`, new Date(at));
      pop.referrals.push({ referrer: influencer, referred, at: new Date(at) });
      if (k >= 15) doTasks(referred, r.int(2, 8), at);
    }
  }

  // Farms.
  const farmMember = (kind: FarmKind, at: number, network = `net-${r.hex(12)}`) => {
    const id = member(kind, new Date(at));
    signUp(id, network, new Date(at));
    return id;
  };
  const spreadTasks = (id: string, at: number) => doTasks(id, r.int(2, 6), at);
  const fanOut = (kind: FarmKind, size: number, sweep: boolean) => {
    const funder = root();
    const collector = sweep ? address() : null;
    const ids: string[] = [];
    for (let i = 0; i < size; i++) {
      const at = signUpTime();
      const id = farmMember(kind, at);
      fund(id, funder, new Date(at + r.next() * H), { sweptTo: collector });
      ids.push(id);
    }
    return ids;
  };
  const chain = (kind: FarmKind, length: number) => {
    let funder = root();
    const ids: string[] = [];
    for (let i = 0; i < length; i++) {
      const at = signUpTime();
      const id = farmMember(kind, at);
      // Each wallet passes the coin on: it holds enough for the rest of the chain.
      funder = fund(id, funder, new Date(at + r.next() * H), { depth: i, amountMilli: 50 + (length - i) * 20 });
      ids.push(id);
    }
    return ids;
  };
  const exchangeWallet = (id: string, at: number) => r.next() < 0.8 && fund(id, r.pick(pop.exchanges), new Date(at + r.next() * DAY));
  const synchronized = (kind: FarmKind, ids: string[]) => {
    const tasks = r.shuffle([...pop.tasks]).slice(0, 5);
    let at = NOW.getTime() - r.int(2, 15) * DAY;
    for (const task of tasks) {
      at += r.int(60, 3600) * 1000;
      for (const id of ids) pop.done.push({ userId: id, taskId: task.id, at: new Date(at + r.int(0, 4000)), submission: submission(task, id) });
    }
    void kind;
  };
  const ring = (kind: FarmKind, referrer: string, size: number) => {
    const ids: string[] = [];
    for (let i = 0; i < size; i++) {
      const at = NOW.getTime() - r.int(3, 25) * DAY - r.next() * DAY;
      const id = farmMember(kind, at);
      exchangeWallet(id, at);
      pop.referrals.push({ referrer, referred: id, at: new Date(at) });
      if (r.next() < 0.5) doTasks(id, 1, at);
      ids.push(id);
    }
    return ids;
  };

  for (let s = 0; s < scale; s++) {
    fanOut("fan_out", r.int(50, 300), false).forEach((id) => spreadTasks(id, NOW.getTime() - 25 * DAY));
    fanOut("fan_out", r.int(50, 300), true).forEach((id) => spreadTasks(id, NOW.getTime() - 25 * DAY));
    for (const length of [40, 60]) chain("funder_chain", length).forEach((id) => spreadTasks(id, NOW.getTime() - 25 * DAY));
    {
      const burst = `net-${r.hex(12)}`;
      const start = signUpTime();
      for (let i = 0; i < 30; i++) {
        const at = start + r.next() * H;
        const id = farmMember("network", at, burst);
        exchangeWallet(id, at);
        spreadTasks(id, at);
      }
      const slow = `net-${r.hex(12)}`;
      const from = signUpTime();
      for (let i = 0; i < 60; i++) {
        const at = from + (i * 12 * H) / 60 + r.next() * 6 * 60_000;
        const id = farmMember("network", at, slow);
        exchangeWallet(id, at);
        spreadTasks(id, at);
      }
    }
    for (let f = 0; f < 2; f++) {
      const ids = Array.from({ length: 25 }, () => {
        const at = signUpTime();
        const id = farmMember("synchronized", at);
        exchangeWallet(id, at);
        return id;
      });
      synchronized("synchronized", ids);
    }
    for (const size of [20, 35]) {
      const at = signUpTime();
      const referrer = farmMember("referral_ring", at);
      exchangeWallet(referrer, at);
      spreadTasks(referrer, at);
      ring("referral_ring", referrer, size);
    }
    // Mixed: a fan-out whose accounts also act in step; a chain whose root account runs a referral ring.
    synchronized("mixed", fanOut("mixed", 60, false));
    const chained = chain("mixed", 20);
    ring("mixed", chained[0]!, 20);
  }
  pop.roots = [...roots];
  return pop;
}
