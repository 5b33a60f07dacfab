import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";
import type { LookupFunction } from "node:net";

/**
 * Requests to addresses a project typed (webhook endpoints, `api_check` tasks), never to our own
 * network: a name that resolves to a loopback, private, link-local (the clouds' metadata service),
 * shared, multicast or reserved address is refused, when the URL is saved (`checkOutboundUrl`) and
 * again at the connection itself (`outboundRequest` resolves the name and connects only to an
 * address it checked, so a name that changes its answer in between gains nothing). The local trial
 * may allow loopback, so a receiver on this machine can be tried. No redirect is followed.
 */

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, prefix, "ipv6");
const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 one. */
function plain(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: "ipv4" };
  return { address, family: isIP(address) === 6 ? "ipv6" : "ipv4" };
}

/** Why an address may not be reached, in words; null when it may. */
export function refusedAddress(address: string, { allowLoopback }: { allowLoopback: boolean }): string | null {
  const { address: ip, family } = plain(address);
  if (loopback.check(ip, family)) return allowLoopback ? null : `${address} is this server itself (loopback)`;
  if (blocked.check(ip, family)) return `${address} is a private, link-local or reserved address`;
  return null;
}

export type OutboundOptions = { allowLoopback: boolean };

/** Whether a URL may be saved: http(s), and every address its name resolves to may be reached. A refusal is a sentence. */
export async function checkOutboundUrl(raw: string, { allowLoopback }: OutboundOptions): Promise<{ ok: true; url: URL } | { ok: false; message: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "Enter a full URL, starting with https://." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, message: "The URL must start with https:// (or http://)." };
  if (url.username || url.password) return { ok: false, message: "The URL must not carry a user name or password." };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await resolveAll(host)).map((a) => a.address);
  } catch {
    return { ok: false, message: `${host} could not be resolved. Check the address.` };
  }
  for (const address of addresses) {
    const refused = refusedAddress(address, { allowLoopback });
    if (refused) return { ok: false, message: `This URL is refused: ${refused}.` };
  }
  return { ok: true, url };
}

const resolveAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** What came back: the status and the body's first `maxBytes`, or why nothing did. */
export type OutboundAnswer =
  | { ok: true; status: number; body: string; headers: http.IncomingHttpHeaders; durationMs: number }
  | { ok: false; reason: "refused" | "timeout" | "unreachable"; message: string; durationMs: number };

class RefusedAddress extends Error {}

/** The resolver a connection uses: every address the name has is checked, and the connection goes only to a checked one. */
function checkedLookup(options: OutboundOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      for (const { address } of addresses) {
        const refused = refusedAddress(address, options);
        if (refused) return callback(new RefusedAddress(refused), "", 0);
      }
      if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Connections kept open between requests (`keepAlive`), one pool per protocol and per
 * `allowLoopback`: a connection is made only to an address `checkedLookup` allowed under the same
 * setting, so reusing it reaches nothing a new connection could not.
 */
const keptAgents = new Map<string, http.Agent>();
function keptAgent(protocol: string, options: OutboundOptions): http.Agent {
  const key = `${protocol}${options.allowLoopback ? "+loopback" : ""}`;
  let agent = keptAgents.get(key);
  if (!agent) {
    const settings = {
      keepAlive: true,
      maxSockets: 64,
      maxFreeSockets: 64,
      maxTotalSockets: 1_024,
      scheduling: "lifo" as const,
      lookup: checkedLookup(options),
    };
    agent = protocol === "https:" ? new https.Agent(settings) : new http.Agent(settings);
    keptAgents.set(key, agent);
  }
  return agent;
}

/**
 * One request to a project's URL within `timeoutMs` in all (connecting, sending, the whole answer),
 * keeping at most `maxBytes` of the answer. Never throws for what the other side does.
 */
export async function outboundRequest({
  url,
  method = "POST",
  headers = {},
  body,
  timeoutMs,
  maxBytes = 64 * 1024,
  allowLoopback,
  keepAlive = false,
}: {
  url: string;
  method?: "POST" | "GET";
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes?: number;
  allowLoopback: boolean;
  /** Reuse connections to the same host (webhook deliveries, many to one receiver); the address checks are the same. */
  keepAlive?: boolean;
}): Promise<OutboundAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const checked = await checkOutboundUrl(url, { allowLoopback });
  if (!checked.ok) return { ok: false, reason: "refused", message: checked.message, durationMs: elapsed() };
  const target = checked.url;
  const client = target.protocol === "https:" ? https : http;
  return new Promise<OutboundAnswer>((resolve) => {
    let settled = false;
    const finish = (answer: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const request = client.request(
      target,
      {
        method,
        headers: { "user-agent": "Questline-Webhooks/1", ...(body === undefined ? {} : { "content-length": Buffer.byteLength(body) }), ...headers },
        lookup: checkedLookup({ allowLoopback }),
        agent: keepAlive ? keptAgent(target.protocol, { allowLoopback }) : false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < maxBytes) chunks.push(chunk.subarray(0, maxBytes - size));
          size += chunk.length;
          if (size >= maxBytes) response.destroy();
        });
        const done = () =>
          finish({
            ok: true,
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            headers: response.headers,
            durationMs: elapsed(),
          });
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, reason: "timeout", message: `No answer within ${timeoutMs / 1000} s.`, durationMs: elapsed() });
    }, timeoutMs);
    request.on("error", (err) => {
      if (err instanceof RefusedAddress)
        return finish({ ok: false, reason: "refused", message: `This URL is refused: ${err.message}.`, durationMs: elapsed() });
      finish({
        ok: false,
        reason: "unreachable",
        message: `The server could not be reached (${(err as NodeJS.ErrnoException).code ?? err.message}).`,
        durationMs: elapsed(),
      });
    });
    request.end(body);
  });
}
