/** A page title: "{page} - {product}", or the product name alone. */
export function pageTitle(appName: string, page?: string) {
  return page ? `${page} - ${appName}` : appName;
}

/** What a public page's meta function is given, as far as publicMeta reads it. */
type PublicMetaArgs = { matches: readonly unknown[]; location: { pathname: string } };

const DESCRIPTION_LENGTH = 160;

type PageMeta = { page?: string; description: string; image?: string | null };

const rootData = (matches: readonly unknown[]) => (matches[0] as { loaderData: { appName: string; appUrl: string } }).loaderData;

/**
 * The head of a page anyone may open: its title, a description (cut to what search results show),
 * its canonical address (this site's APP_URL and the path, without the query), and the Open Graph
 * and card tags link previews are built from.
 */
export function publicMeta({ matches, location }: PublicMetaArgs, { page, description, image }: PageMeta) {
  const { appName, appUrl } = rootData(matches);
  const text = description.length > DESCRIPTION_LENGTH ? `${description.slice(0, DESCRIPTION_LENGTH - 1).trimEnd()}…` : description;
  const url = appUrl + location.pathname;
  const og = { type: "website", title: page ?? appName, description: text, url, ...(image ? { image } : {}) };
  return [
    { title: pageTitle(appName, page) },
    { name: "description", content: text },
    { tagName: "link", rel: "canonical", href: url },
    ...Object.entries(og).map(([key, content]) => ({ property: `og:${key}`, content })),
    { name: "twitter:card", content: "summary" },
  ];
}

/**
 * publicMeta for a page its loader's data describes. Without the data (the page answers an error:
 * not found, say) the head is the title alone, `fallback` naming the page.
 */
export function dataPageMeta<Data>(
  args: PublicMetaArgs & { loaderData: Data | undefined },
  fallback: string,
  describe: (data: Data, appName: string) => PageMeta,
) {
  const { appName } = rootData(args.matches);
  return args.loaderData === undefined ? [{ title: pageTitle(appName, fallback) }] : publicMeta(args, describe(args.loaderData, appName));
}
