import { useRouteLoaderData } from "react-router";

/** The product's name when `APP_NAME` is not set. */
export const DEFAULT_APP_NAME = "Questline";

/** The product's name as configured (`APP_NAME`), read from the root loader's data. */
export function useAppName(): string {
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  return root?.appName ?? DEFAULT_APP_NAME;
}
