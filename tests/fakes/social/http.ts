import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { FakeProvider } from "./endpoints.ts";
import type { FakeState } from "./state.ts";

/** One answer of a fake endpoint: JSON, or raw text (a malformed body). */
export type Answer = { status: number; json?: unknown; text?: string; headers?: Record<string, string> };

/** One API request as a provider's router sees it. */
export type ApiRequest = {
  provider: FakeProvider;
  method: string;
  url: URL;
  /** The JSON body, when there is one. */
  body: unknown;
  /** The bearer token (or Instagram's `access_token` parameter). */
  token: string | null;
  /** Discord's `Authorization: Bot <token>`. */
  botToken: string | null;
  headers: IncomingHttpHeaders;
  state: FakeState;
};

export type ApiRouter = (request: ApiRequest) => Answer;

export const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({ status, json: body, ...(headers ? { headers } : {}) });

export function send(res: ServerResponse, answer: Answer) {
  const body = answer.text ?? JSON.stringify(answer.json ?? {});
  res.writeHead(answer.status, { "content-type": "application/json; charset=UTF-8", "cache-control": "no-store", ...answer.headers });
  res.end(body);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export const bearerToken = (req: IncomingMessage) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? null;
export const botToken = (req: IncomingMessage) => /^Bot\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? null;

/** `Authorization: Basic base64(id:secret)` (each part form-encoded, RFC 6749 §2.3.1). */
export function basicCredentials(req: IncomingMessage): { id: string; secret: string } | null {
  const encoded = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return null;
  const unescape = (value: string) => decodeURIComponent(value.replace(/\+/g, " "));
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}

/** A comma- or space-separated list (TikTok and Instagram use commas, X and Google spaces). */
export const listOf = (value: string | null | undefined) => (value ?? "").split(/[\s,]+/).filter(Boolean);

export const logId = () => `${Date.now()}${Math.floor(Math.random() * 1e9)}`;
