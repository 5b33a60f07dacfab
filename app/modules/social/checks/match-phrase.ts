/**
 * Whether a post says what a task asks for: the phrase, ignoring case and spacing, as whole words
 * (`gm` is not found in `programming`). A phrase that is a link is also found among the post's
 * links as the provider expanded them (X shows `https://t.co/…` in the text), with or without its
 * scheme or `www.`, and with anything after it (`?ref=…`).
 */
export function mentionsPhrase({ text, links = [], phrase }: { text: string; links?: readonly string[]; phrase: string }): boolean {
  const wanted = normalize(phrase);
  if (!wanted) return false;
  if (containsWhole(normalize(text), wanted)) return true;
  if (!looksLikeLink(phrase)) return false;
  const wantedLink = bareLink(wanted);
  return [text, ...links].some((candidate) => containsWhole(bareLink(normalize(candidate)), wantedLink));
}

const normalize = (value: string) => value.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

const looksLikeLink = (value: string) => /^(https?:\/\/)?([a-z0-9-]+\.)+[a-z]{2,}(\/\S*)?$/i.test(value.trim());

/** Without schemes, `www.` and a trailing slash: how two links are compared. */
const bareLink = (value: string) =>
  value
    .replace(/https?:\/\//g, "")
    .replace(/(^|[\s(])www\./g, "$1")
    .replace(/\/(?=\s|$)/g, "");

const WORD = /[\p{L}\p{N}_]/u;

/** `needle` in `haystack`, not glued to a letter or digit on a side where the needle itself starts or ends with one. */
function containsWhole(haystack: string, needle: string): boolean {
  const guardStart = WORD.test(needle[0]!);
  const guardEnd = WORD.test(needle[needle.length - 1]!);
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if (guardStart && before !== undefined && WORD.test(before)) continue;
    if (guardEnd && after !== undefined && WORD.test(after)) continue;
    return true;
  }
  return false;
}
