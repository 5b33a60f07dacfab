/**
 * Where the e2e servers listen; shared by playwright.config.ts, the fixtures and the servers each
 * Playwright worker starts (tests/e2e/servers.ts). Each worker has servers of its own, 10 ports
 * further per worker slot (Playwright's TEST_PARALLEL_INDEX, which only workers have). The bases
 * can be moved (E2E_APP_PORT, E2E_SMTP_PORT, E2E_INBOX_PORT, E2E_SOCIAL_PORT) so two runs can share
 * one machine.
 */
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback) + 10 * slot;

export const APP_PORT = port("E2E_APP_PORT", 3100);
export const APP_URL = `http://localhost:${APP_PORT}`;
export const SMTP_PORT = port("E2E_SMTP_PORT", 2526);
export const INBOX_PORT = port("E2E_INBOX_PORT", 3199);
export const INBOX_URL = `http://127.0.0.1:${INBOX_PORT}`;
/** The social providers' fakes (tests/fakes/social/serve.ts): X here, YouTube +1, TikTok +2, Instagram +3, their control API +4. */
export const SOCIAL_PORT = port("E2E_SOCIAL_PORT", 4650);
export const SOCIAL_CONTROL_URL = `http://127.0.0.1:${SOCIAL_PORT + 4}`;

/** `E2E_CLUSTER=1`: the suite runs against `npm run cluster`'s processes (see playwright.config.ts). */
export const CLUSTER = process.env.E2E_CLUSTER === "1";

/**
 * How long to wait for what a worker does (a payout, a withdrawal, a deposit credited, an airdrop
 * round): against the cluster (E2E_CLUSTER=1) a worker may be SIGKILLed mid-job, which holds that
 * job's key until its heartbeat lapses and another worker takes it up (about 14 s), on a machine
 * running five app processes.
 */
export const jobWait = (ms: number) => ms + (CLUSTER ? 30_000 : 0);
