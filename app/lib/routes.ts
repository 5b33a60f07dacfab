import { createRouteHelper } from "./named-routes";

/** The product's named routes; screens link through `route(name, params)`. */
export const ROUTES = {
  welcome: { path: "/" },
  dashboard: { path: "/dashboard" },
  login: { path: "/login" },
  logout: { path: "/logout" },
  "settings.profile": { path: "/settings/profile" },
  "settings.password": { path: "/settings/password" },
  "settings.appearance": { path: "/settings/appearance" },
  "dev.mail": { path: "/dev/mail" },
} as const;

export const route = createRouteHelper(ROUTES);
