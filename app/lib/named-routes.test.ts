import { describe, expect, it } from "vitest";
import { createRouteHelper, RouteError } from "./named-routes";
import { route as appRoute } from "./routes";

const route = createRouteHelper(
  {
    home: { path: "/" },
    "projects.show": { path: "/projects/:project", bindings: { project: "slug" } },
    "projects.campaigns.show": { path: "/projects/:project/campaigns/:campaign", bindings: { project: "slug" } },
    "leaderboard.window": { path: "/leaderboard/:window?", defaults: { window: "all" } },
    "tasks.page": { path: "/tasks/:page?" },
    "docs.lang": { path: "/:locale/docs" },
  },
  { locale: "en" },
);

describe("route()", () => {
  it("builds a route without parameters", () => {
    expect(route("home")).toBe("/");
    expect(route("home", [])).toBe("/");
    expect(route("home", {})).toBe("/");
  });

  it("gives a route without parameters a query string from the keys it is given", () => {
    expect(route("home", { window: "7d" })).toBe("/?window=7d");
    expect(route("home", { skipped: null })).toBe("/");
    expect(() => route("home", ["extra"])).toThrow(RouteError);
  });

  it("fills parameters from an array, in order", () => {
    expect(route("projects.campaigns.show", ["acme", 42])).toBe("/projects/acme/campaigns/42");
  });

  it("fills parameters from an object by name, extra keys become the query string", () => {
    expect(route("projects.show", { project: "acme", tab: "tasks", page: 2 })).toBe("/projects/acme?tab=tasks&page=2");
  });

  it("uses a model's route-model binding key, falling back to id", () => {
    expect(route("projects.show", { project: { id: 7, slug: "acme" } })).toBe("/projects/acme");
    expect(route("projects.show", [{ id: 7, slug: "acme" }])).toBe("/projects/acme");
    expect(route("projects.campaigns.show", [{ slug: "acme" }, { id: 12, slug: "summer" }])).toBe("/projects/acme/campaigns/12");
    expect(route("projects.show", { project: { id: 7 } })).toBe("/projects/7");
  });

  it("throws a developer error naming the route and parameter when a model has neither key nor id", () => {
    expect(() => route("projects.show", { project: { name: "Acme" } })).toThrow(RouteError);
    expect(() => route("projects.show", { project: { name: "Acme" } })).toThrow(
      'Route "projects.show": parameter "project" is an object without "slug" or "id"',
    );
    expect(() => route("projects.campaigns.show", ["acme", { title: "x" }])).toThrow('parameter "campaign" is an object without "id"');
  });

  it("applies default parameter values, per route and global", () => {
    expect(route("leaderboard.window")).toBe("/leaderboard/all");
    expect(route("leaderboard.window", { window: "7d" })).toBe("/leaderboard/7d");
    expect(route("docs.lang")).toBe("/en/docs");
    expect(route("docs.lang", ["fr"])).toBe("/fr/docs");
  });

  it("drops an optional parameter that is not given", () => {
    expect(route("tasks.page")).toBe("/tasks");
    expect(route("tasks.page", [3])).toBe("/tasks/3");
  });

  it("encodes values", () => {
    expect(route("projects.show", ["a b/c"])).toBe("/projects/a%20b%2Fc");
  });

  it("refuses a missing required parameter, too many positional ones and unknown names", () => {
    expect(() => route("projects.show")).toThrow('Route "projects.show" needs parameter "project"');
    expect(() => route("projects.show", ["a", "b"])).toThrow("takes 1 parameter(s), got 2");
    // @ts-expect-error: not a route name
    expect(() => route("nope")).toThrow('Route "nope" is not defined');
  });

  it("knows the product's routes", () => {
    expect(appRoute("settings.profile")).toBe("/settings/profile");
    expect(appRoute("login", { redirectTo: "/dashboard" })).toBe("/login?redirectTo=%2Fdashboard");
  });
});
