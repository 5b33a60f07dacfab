import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "./env.server";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "questline-env-"));

describe("loadEnv", () => {
  it("has working defaults for a zero-config start", () => {
    const dir = dataDir();
    const env = loadEnv({ DATA_DIR: dir });
    expect(env).toMatchObject({ PORT: 3000, APP_NAME: "Questline", APP_URL: "http://localhost:3000", DATA_DIR: dir, isPublic: false });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
  });

  it("runs one web process per core only where processes can share the database and chain", () => {
    const pg = { DATA_DIR: dataDir(), DATABASE_URL: "postgres://localhost/questline" };
    expect(loadEnv({ DATA_DIR: dataDir() }).webProcesses, "the embedded database").toBe(1);
    expect(loadEnv(pg).webProcesses, "a local chain each would start").toBe(1);
    expect(loadEnv({ ...pg, LOCAL_CHAIN: "off" }).webProcesses).toBe(availableParallelism());
    expect(loadEnv({ ...pg, LOCAL_CHAIN_RPC_URL: "http://127.0.0.1:8545" }).webProcesses).toBe(availableParallelism());
    expect(loadEnv({ ...pg, LOCAL_CHAIN: "off", WEB_PROCESSES: "3" }).webProcesses).toBe(3);
    expect(loadEnv({ ...pg, LOCAL_CHAIN: "off", ROLE: "web" }).webProcesses, "a process with a role of its own").toBe(1);
    expect(() => loadEnv({ DATA_DIR: dataDir(), WEB_PROCESSES: "2" })).toThrow(/^Invalid configuration: WEB_PROCESSES above 1 needs .*DATABASE_URL/);
    expect(() => loadEnv({ ...pg, WEB_PROCESSES: "2" })).toThrow(/LOCAL_CHAIN=off or LOCAL_CHAIN_RPC_URL/);
    expect(() => loadEnv({ ...pg, WEB_PROCESSES: "0" })).toThrow(/^Invalid configuration: WEB_PROCESSES /);
  });

  it("generates an auth secret once and keeps it in the data folder", () => {
    const dir = dataDir();
    const first = loadEnv({ DATA_DIR: dir }).AUTH_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, "auth-secret"), "utf8")).toBe(first);
    expect(loadEnv({ DATA_DIR: dir }).AUTH_SECRET).toBe(first);
  });

  it("names the variable and the problem in one line", () => {
    expect(() => loadEnv({ DATA_DIR: dataDir(), PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadEnv({ DATA_DIR: dataDir(), PORT: "70000" })).toThrow(/^Invalid configuration: PORT /);
    expect(() => loadEnv({ DATA_DIR: dataDir(), DATABASE_URL: "mysql://x" })).toThrow(
      "Invalid configuration: DATABASE_URL must start with postgres:// or postgresql://",
    );
    expect(() => loadEnv({ DATA_DIR: dataDir(), APP_URL: "not a url" })).toThrow(/^Invalid configuration: APP_URL /);
    expect(() => loadEnv({ DATA_DIR: dataDir(), AUTH_SECRET: "short" })).toThrow("Invalid configuration: AUTH_SECRET must be at least 32 characters");
    expect(() => loadEnv({ DATA_DIR: dataDir(), REWARDS_EVERY_MS: "10" })).toThrow(/^Invalid configuration: REWARDS_EVERY_MS /);
  });

  it("pays reward pools every minute unless REWARDS_EVERY_MS says otherwise", () => {
    expect(loadEnv({ DATA_DIR: dataDir() }).REWARDS_EVERY_MS).toBe(60_000);
    expect(loadEnv({ DATA_DIR: dataDir(), REWARDS_EVERY_MS: "2000" }).REWARDS_EVERY_MS).toBe(2_000);
  });

  it("scans deposits every second with per-chain confirmations unless told otherwise", () => {
    const defaults = loadEnv({ DATA_DIR: dataDir() });
    expect(defaults.DEPOSIT_SCAN_EVERY_MS).toBe(1_000);
    expect(defaults.confirmations).toEqual(
      new Map([
        [1, 12],
        [8453, 10],
        [42161, 10],
        [10, 10],
        [137, 64],
        [56, 15],
        [11155111, 6],
        [84532, 6],
        [421614, 6],
        [97, 6],
        [31337, 1],
        [31338, 1],
      ]),
    );
    const set = loadEnv({ DATA_DIR: dataDir(), DEPOSIT_SCAN_EVERY_MS: "250", CONFIRMATIONS: "56:20, 8453:12" });
    expect(set.DEPOSIT_SCAN_EVERY_MS).toBe(250);
    expect(set.confirmations.get(56)).toBe(20);
    expect(set.confirmations.get(8453)).toBe(12);
    expect(set.confirmations.get(11155111)).toBe(6);
    expect(() => loadEnv({ DATA_DIR: dataDir(), DEPOSIT_SCAN_EVERY_MS: "50" })).toThrow(/^Invalid configuration: DEPOSIT_SCAN_EVERY_MS /);
    for (const bad of ["56", "56:0", "56:15,", "bsc:15"]) {
      expect(() => loadEnv({ DATA_DIR: dataDir(), CONFIRMATIONS: bad })).toThrow(/^Invalid configuration: CONFIRMATIONS must be chainId:confirmations pairs/);
    }
  });
  it("reads a node per chain from RPC_URL_<chainId>, refusing an unknown chain or a value that is not a URL in words", () => {
    expect(loadEnv({ DATA_DIR: dataDir() }).rpcUrls).toEqual(new Map());
    expect(loadEnv({ DATA_DIR: dataDir(), RPC_URL_8453: "https://base.node.example/rpc", RPC_URL_1: "" }).rpcUrls).toEqual(
      new Map([[8453, "https://base.node.example/rpc"]]),
    );
    expect(() => loadEnv({ DATA_DIR: dataDir(), RPC_URL_424242: "https://node.example" })).toThrow(
      /^Invalid configuration: RPC_URL_424242 names chain 424242, which has no RPC_URL_ variable; known chains: 1 \(Ethereum\), 8453 \(Base\)/,
    );
    expect(() => loadEnv({ DATA_DIR: dataDir(), RPC_URL_31337: "http://127.0.0.1:8545" })).toThrow(/^Invalid configuration: RPC_URL_31337 names chain 31337/);
    // The second local chain has no LOCAL_CHAIN_RPC_URL of its own: its node is RPC_URL_31338.
    expect(loadEnv({ DATA_DIR: dataDir(), RPC_URL_31338: "http://127.0.0.1:8546" }).rpcUrls).toEqual(new Map([[31338, "http://127.0.0.1:8546"]]));
    expect(() => loadEnv({ DATA_DIR: dataDir(), RPC_URL_8453: "base node" })).toThrow(
      /^Invalid configuration: RPC_URL_8453 must be an http\(s\) URL of the chain's node/,
    );
  });
  it("reads a node's WebSocket per chain from RPC_WS_URL_<chainId>, refusing an unknown chain or a value that is not a ws(s) URL in words", () => {
    expect(loadEnv({ DATA_DIR: dataDir() }).rpcWebSocketUrls).toEqual(new Map());
    expect(loadEnv({ DATA_DIR: dataDir(), RPC_WS_URL_8453: "wss://base.node.example/ws", RPC_WS_URL_1: "" }).rpcWebSocketUrls).toEqual(
      new Map([[8453, "wss://base.node.example/ws"]]),
    );
    expect(() => loadEnv({ DATA_DIR: dataDir(), RPC_WS_URL_424242: "wss://node.example" })).toThrow(
      /^Invalid configuration: RPC_WS_URL_424242 names chain 424242, which has no RPC_WS_URL_ variable; known chains: 1 \(Ethereum\)/,
    );
    expect(() => loadEnv({ DATA_DIR: dataDir(), RPC_WS_URL_31337: "ws://127.0.0.1:8545" })).toThrow(
      /^Invalid configuration: RPC_WS_URL_31337 names chain 31337/,
    );
    expect(() => loadEnv({ DATA_DIR: dataDir(), RPC_WS_URL_8453: "https://base.node.example" })).toThrow(
      /^Invalid configuration: RPC_WS_URL_8453 must be a ws:\/\/ or wss:\/\/ URL of the chain's node/,
    );
  });
  it("reads where deposit scanning starts per chain, and refuses a malformed list", () => {
    expect(loadEnv({ DATA_DIR: dataDir() }).depositStartBlocks).toEqual(new Map());
    expect(loadEnv({ DATA_DIR: dataDir(), DEPOSIT_START_BLOCKS: "56:41000000, 11155111:0" }).depositStartBlocks).toEqual(
      new Map([
        [56, 41_000_000],
        [11155111, 0],
      ]),
    );
    for (const bad of ["56", "56:-1", "bsc:1", "56:1,"]) {
      expect(() => loadEnv({ DATA_DIR: dataDir(), DEPOSIT_START_BLOCKS: bad })).toThrow(
        /^Invalid configuration: DEPOSIT_START_BLOCKS must be chainId:block pairs/,
      );
    }
  });

  it("reads the withdrawal settings, with defaults, and refuses a malformed operator key or amount", () => {
    expect(loadEnv({ DATA_DIR: dataDir() }).OPERATOR_PRIVATE_KEY).toBeUndefined();
    expect(loadEnv({ DATA_DIR: dataDir() })).toMatchObject({
      WITHDRAWAL_MIN: "1",
      WITHDRAWAL_DAILY_LIMIT: "10000",
      WITHDRAWAL_FEE: "0",
      WITHDRAW_EVERY_MS: 1_000,
      WITHDRAWAL_TIMEOUT_MS: 600_000,
    });
    expect(loadEnv({ DATA_DIR: dataDir(), WITHDRAWAL_FEE: "0.25", OPERATOR_PRIVATE_KEY: `0x${"ab".repeat(32)}` })).toMatchObject({ WITHDRAWAL_FEE: "0.25" });
    expect(() => loadEnv({ DATA_DIR: dataDir(), OPERATOR_PRIVATE_KEY: "0x1234" })).toThrow(
      "Invalid configuration: OPERATOR_PRIVATE_KEY must be 0x followed by 64 hex digits",
    );
    expect(() => loadEnv({ DATA_DIR: dataDir(), WITHDRAWAL_MIN: "1.0000000000000000001" })).toThrow(
      /^Invalid configuration: WITHDRAWAL_MIN must be a token amount/,
    );
  });

  it("refuses public production without SMTP or without a secret, and never writes a secret there", () => {
    const dir = dataDir();
    const publicUrl = { NODE_ENV: "production", DATA_DIR: dir, APP_URL: "https://questline.example" };
    expect(() => loadEnv({ ...publicUrl, AUTH_SECRET: "x".repeat(40) })).toThrow(/SMTP_URL is required in production/);
    expect(() => loadEnv({ ...publicUrl, SMTP_URL: "smtp://mail:25" })).toThrow(/AUTH_SECRET is required in production/);
    // Listening beyond loopback counts as public too, whatever APP_URL says.
    expect(() => loadEnv({ NODE_ENV: "production", DATA_DIR: dir, HOST: "0.0.0.0", SMTP_URL: "smtp://mail:25" })).toThrow(/AUTH_SECRET is required/);
    expect(existsSync(path.join(dir, "auth-secret"))).toBe(false);
    const env = loadEnv({ ...publicUrl, SMTP_URL: "smtp://mail:25", AUTH_SECRET: "x".repeat(40), TRUST_PROXY: "loopback" });
    expect(env).toMatchObject({ isPublic: true, localChain: false });
  });

  it("refuses a public https:// APP_URL without TRUST_PROXY, in one line saying why", () => {
    const served = {
      NODE_ENV: "production",
      DATA_DIR: dataDir(),
      APP_URL: "https://questline.example",
      SMTP_URL: "smtp://mail:25",
      AUTH_SECRET: "x".repeat(40),
    };
    expect(() => loadEnv(served)).toThrow(/^Invalid configuration: TRUST_PROXY must be loopback or all when APP_URL is https:\/\/ \(behind a TLS proxy/);
    expect(loadEnv({ ...served, TRUST_PROXY: "all" }).TRUST_PROXY).toBe("all");
  });

  it("runs a production build kept on loopback as a local trial: dev inbox, generated secret, local chain", () => {
    const dir = dataDir();
    const env = loadEnv({ NODE_ENV: "production", DATA_DIR: dir });
    expect(env).toMatchObject({ isPublic: false, localChain: true });
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(existsSync(path.join(dir, "auth-secret"))).toBe(true);
  });

  it("treats empty values as unset and trims a trailing slash from APP_URL", () => {
    const env = loadEnv({ DATA_DIR: dataDir(), PORT: "", APP_URL: "https://questline.example/" });
    expect(env.PORT).toBe(3000);
    expect(env.APP_URL).toBe("https://questline.example");
  });
});
