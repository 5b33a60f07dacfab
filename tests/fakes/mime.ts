/**
 * Just enough MIME to read what nodemailer sends: headers (with folded lines and RFC 2047 encoded
 * words), multipart bodies, and quoted-printable or base64 parts. The text/plain part is the one
 * the tests read.
 */

export type ParsedMail = { subject: string; to: string; text: string };

type Part = { headers: Map<string, string>; body: string };

export function parseMail(raw: string): ParsedMail {
  const message = splitPart(raw);
  const text = findText(message) ?? "";
  return { subject: decodeWords(message.headers.get("subject") ?? ""), to: decodeWords(message.headers.get("to") ?? ""), text };
}

function splitPart(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded header lines start with white space and continue the previous header.
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function headerParam(value: string, name: string) {
  const match = value.match(new RegExp(`;\\s*${name}="?([^";]+)"?`, "i"));
  return match?.[1];
}

function findText(part: Part): string | undefined {
  const type = part.headers.get("content-type") ?? "text/plain";
  if (/^multipart\//i.test(type)) {
    const boundary = headerParam(type, "boundary");
    if (!boundary) return undefined;
    const children = part.body
      .split(`--${boundary}`)
      .slice(1)
      .filter((chunk) => !chunk.startsWith("--"))
      .map((chunk) => splitPart(chunk.replace(/^\n/, "")));
    for (const child of children) {
      const text = findText(child);
      if (text !== undefined) return text;
    }
    return undefined;
  }
  if (!/^text\/plain/i.test(type)) return undefined;
  return decodeBody(part.body, part.headers.get("content-transfer-encoding") ?? "7bit", headerParam(type, "charset") ?? "utf-8");
}

function decodeBody(body: string, encoding: string, charset: string) {
  const bytes = /quoted-printable/i.test(encoding)
    ? decodeQuotedPrintable(body)
    : /base64/i.test(encoding)
      ? Buffer.from(body.replace(/\s+/g, ""), "base64")
      : Buffer.from(body, "utf8");
  return new TextDecoder(charset).decode(bytes).replace(/\n+$/, "");
}

/** Soft line breaks (`=` at the end of a line) join lines; `=XX` is a byte. */
export function decodeQuotedPrintable(input: string): Buffer {
  const joined = input.replace(/[ \t]+$/gm, "").replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047: `=?utf-8?Q?...?=` and `=?utf-8?B?...?=`, adjacent words joined without the space between them. */
export function decodeWords(value: string) {
  return value.replace(/(\?=)\s+(=\?)/g, "$1$2").replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, charset: string, kind: string, data: string) => {
    const bytes = kind.toUpperCase() === "B" ? Buffer.from(data, "base64") : decodeQuotedPrintable(data.replace(/_/g, "=20"));
    return new TextDecoder(charset).decode(bytes);
  });
}
