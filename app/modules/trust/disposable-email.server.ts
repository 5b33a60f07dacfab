import { disposableEmailBlocklistSet } from "disposable-email-domains-js";

/**
 * The disposable (throwaway) mail domains: the community-maintained disposable-email-domains list,
 * as the `disposable-email-domains-js` package publishes it (CC0). Read once, on first use.
 */
let listed: Set<string> | undefined;

/**
 * The listed disposable domain an e-mail address is at, or null: `x@mailinator.com` and
 * `x@eu.mailinator.com` both give `mailinator.com`. Compared in lower case; an address without a
 * domain gives null.
 */
export function disposableDomainOf(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 0) return null;
  const labels = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, "")
    .split(".");
  if (labels.length < 2 || labels.some((label) => !label)) return null;
  listed ??= disposableEmailBlocklistSet();
  for (let start = 0; start <= labels.length - 2; start++) {
    const domain = labels.slice(start).join(".");
    if (listed.has(domain)) return domain;
  }
  return null;
}
