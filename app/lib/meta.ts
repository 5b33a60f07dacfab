/** A page title: "{page} - {product}", or the product name alone. */
export function pageTitle(appName: string, page?: string) {
  return page ? `${page} - ${appName}` : appName;
}
