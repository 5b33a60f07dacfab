import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project } from "#db/schema/projects";
import { failureMessage } from "~/lib/result";
import { saveTask, type TaskInput } from "~/modules/tasks/tasks.server";
import type { Services } from "~/services/services.server";
import { routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { action } from "./show";

let services: Services;
let cookie: string;
beforeAll(async () => {
  services = await createTestServices();
  ({ cookie } = await signedInMember(services, "ann"));
  await services.database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
});
afterAll(() => services.close());

async function createTask(fields: Partial<TaskInput>) {
  const input: TaskInput = {
    title: "A task",
    description: "",
    type: "visit_link",
    config: { url: "https://example.com" },
    xp: 10,
    verification: "auto",
    recurrence: "once",
    startsAt: null,
    endsAt: null,
    cap: null,
    campaignId: null,
    published: true,
    ...fields,
  };
  const saved = await saveTask({ db: services.database.db, projectId: "p", input });
  if (!saved.ok) throw new Error(failureMessage(saved));
  return saved.task.id;
}

/** The task page's form sent as the browser sends it; the answer's status and body. */
async function submit(taskId: string, fields: Record<string, string>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  const request = new Request(`http://localhost:3000/tasks/${taskId}`, { method: "POST", body, headers: { cookie } });
  const answered = (await action(routeArgs(services, request, { task: taskId }))) as unknown as { data: unknown; init: ResponseInit | null };
  return { status: answered.init?.status ?? 200, data: answered.data };
}

describe("the task page's answer", () => {
  it("is a 200 with the result when the check ran and found the task not done yet, or done already", async () => {
    const wallet = await createTask({ type: "wallet_connected", config: {} });
    expect(await submit(wallet, { intent: "check" })).toEqual({
      status: 200,
      data: { ok: false, errors: { form: "Link a wallet in Settings › Profile first." } },
    });
    const visit = await createTask({ verification: "none" });
    expect(await submit(visit, { intent: "visit" })).toMatchObject({ status: 200, data: { ok: true, status: "approved" } });
    expect(await submit(visit, { intent: "visit" })).toEqual({ status: 200, data: { ok: false, errors: { form: "You have completed this task." } } });
  });

  it("is a 400 with the field's error for a wrong input", async () => {
    const quiz = await createTask({ type: "quiz", config: { question: "2 + 2?", answers: ["4"], retryDelaySeconds: 0 } });
    expect(await submit(quiz, { intent: "answer", answer: "5" })).toEqual({
      status: 400,
      data: { ok: false, errors: { answer: "That is not the answer." }, value: "5" },
    });
  });

  it("asks an api_check task's server, answering 200 approved when it says done and 503 when it does not answer", async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => (req.url === "/done" ? res.writeHead(200, { "content-type": "application/json" }).end('{"done":true}') : res.writeHead(502).end()));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const done = await createTask({ type: "api_check", config: { url: `${base}/done`, instructions: "" } });
      expect(await submit(done, { intent: "check" })).toMatchObject({ status: 200, data: { ok: true, status: "approved", xpAwarded: 10 } });
      const down = await createTask({ type: "api_check", config: { url: `${base}/down`, instructions: "" } });
      expect(await submit(down, { intent: "check" })).toEqual({
        status: 503,
        data: { ok: false, errors: { form: "The project's server did not answer; try again." } },
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
