import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { servicesContext } from "~/services/services.server";
import { createTestServices } from "#tests/setup/test-services";
import { loader } from "./healthz";

async function health(services: Awaited<ReturnType<typeof createTestServices>>) {
  const context = new RouterContextProvider(new Map([[servicesContext, services]]));
  const request = new Request("http://localhost:3000/healthz");
  return loader({ request, context, params: {}, url: new URL(request.url), pattern: "/healthz" } as unknown as Parameters<typeof loader>[0]);
}

describe("GET /healthz", () => {
  it("answers 200 ok while the database answers, 503 once it does not", async () => {
    const services = await createTestServices();
    const up = await health(services);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: "ok" });

    await services.database.close();
    const down = await health(services);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: "unavailable" });
  });
});
