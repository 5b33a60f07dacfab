/** SPEC.md §1: "{page} - {product}", or the product name alone. */
export function pageTitle(appName: string, page?: string) {
  return page ? `${page} - ${appName}` : appName;
}
