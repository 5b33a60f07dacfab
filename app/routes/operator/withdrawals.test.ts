import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withdrawalsPaused } from "~/modules/withdrawals/withdrawal-pause.server";
import type { Services } from "~/services/services.server";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { action, loader } from "./withdrawals";

let services: Services;
let operator: string;
let member: string;
beforeAll(async () => {
  services = await createTestServices({ OPERATORS: "ops@example.com" });
  ({ cookie: operator } = await signedInMember(services, "ops"));
  ({ cookie: member } = await signedInMember(services, "member"));
});
afterAll(() => services.close());

const post = (cookie: string, intent: string) =>
  answer(() =>
    action(
      routeArgs(
        services,
        new Request("http://localhost:3000/operator/withdrawals", { method: "POST", headers: { cookie }, body: new URLSearchParams({ intent }) }),
      ),
    ),
  );

/** A `data()` answer's status and body, or a Response's status. */
const statusOf = (result: unknown) => (result instanceof Response ? result.status : ((result as { init?: { status?: number } }).init?.status ?? 200));

describe("/operator/withdrawals", () => {
  it("is refused to a member who is not an operator, and changes nothing for them", async () => {
    const page = await answer(() => loader(routeArgs(services, new Request("http://localhost:3000/operator/withdrawals", { headers: { cookie: member } }))));
    expect(statusOf(page)).toBe(403);
    expect(statusOf(await post(member, "pause"))).toBe(403);
    expect(await withdrawalsPaused({ db: services.database.db })).toBe(false);
  });

  it("lets an operator pause and resume, and refuses an unknown intent without changing anything", async () => {
    expect(await post(operator, "pause")).toEqual({ ok: true, paused: true });
    expect(await withdrawalsPaused({ db: services.database.db })).toBe(true);
    const unknown = await post(operator, "drain");
    expect(statusOf(unknown)).toBe(400);
    expect(await withdrawalsPaused({ db: services.database.db })).toBe(true);
    expect(await post(operator, "resume")).toEqual({ ok: true, paused: false });
    const page = await loader(routeArgs(services, new Request("http://localhost:3000/operator/withdrawals", { headers: { cookie: operator } })));
    expect(page).toEqual({ paused: false, rows: [] });
  });
});
