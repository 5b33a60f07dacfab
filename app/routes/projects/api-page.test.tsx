import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import ProjectApi from "./api";

const T = new Date("2026-11-20T12:00:00Z");
const keys = [
  { id: "k1", name: "Discord bot", prefix: "ql_AbCdEfGh", scopes: ["read", "xp:write"], createdAt: T, lastUsedAt: T, revokedAt: null },
  { id: "k2", name: "Old script", prefix: "ql_ZyXwVuTs", scopes: ["read"], createdAt: T, lastUsedAt: null, revokedAt: T },
];

function render(url: string, loaderData: object, actionData?: object) {
  const Stub = createRoutesStub([{ id: "api", path: "/projects/:project/api", Component: ProjectApi as never }]);
  return renderToStaticMarkup(
    <Stub initialEntries={[url]} hydrationData={{ loaderData: { api: loaderData }, actionData: actionData ? { api: actionData } : undefined }} />,
  );
}

describe("the API page's markup (no JavaScript needed)", () => {
  it("lists keys with prefix, scopes, dates and state, links the reference, and offers Revoke as a link to a confirmation", () => {
    const html = render("/projects/p/api", { project: { slug: "p", name: "P" }, keys });
    expect(html).toContain("Discord bot");
    expect(html).toContain("ql_AbCdEfGh…");
    expect(html).toContain("xp:write");
    expect(html).toContain("last used Nov 20, 2026");
    expect(html).toContain("never used");
    expect(html).toContain("Revoked Nov 20, 2026");
    expect(html).toContain('href="/api/v1/reference"');
    expect(html.match(/Revoke…/g)).toHaveLength(1);
    expect(html).toContain('href="/projects/p/api?revoke=k1"');
    expect(html).not.toContain('value="revoke"');
    expect(html).toContain('name="scope.completions:write"');
  });

  it("asks before revoking: a form that posts the key's id", () => {
    const html = render("/projects/p/api?revoke=k1", { project: { slug: "p", name: "P" }, keys });
    expect(html).toContain("Revoke &quot;Discord bot&quot;? Its requests will be refused.");
    expect(html).toMatch(/<form [^>]*action="\/projects\/p\/api" method="post">(?:(?!<\/form>).)*name="id" value="k1"(?:(?!<\/form>).)*value="revoke"/);
    expect(html).not.toContain('action="/projects/p/api?revoke=k1"');
  });

  it("shows a new key once with a warning and a copy button; says when there are no keys", () => {
    const html = render("/projects/p/api", { project: { slug: "p", name: "P" }, keys: [] }, { ok: true, key: `ql_${"a".repeat(43)}`, name: "Bot" });
    expect(html).toContain(`value="ql_${"a".repeat(43)}"`);
    expect(html).toContain("It is shown this once");
    expect(html).toContain("Copy");
    expect(html).toContain("No keys yet");
  });
});
