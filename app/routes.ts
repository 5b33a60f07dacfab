import { index, layout, prefix, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/welcome.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.ts"),
  layout("routes/app-layout.tsx", [
    route("dashboard", "routes/dashboard.tsx"),
    ...prefix("settings", [
      layout("routes/settings/layout.tsx", [
        index("routes/settings/index.ts"),
        route("profile", "routes/settings/profile.tsx"),
        route("password", "routes/settings/password.tsx"),
        route("appearance", "routes/settings/appearance.tsx"),
      ]),
    ]),
  ]),
  route("healthz", "routes/healthz.ts"),
  route("api/auth/*", "routes/api.auth.ts"),
  route("avatars/:file", "routes/avatars.ts"),
  route("dev/mail", "routes/dev.mail.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
