import { expect, SAME_ORIGIN, test } from "./fixtures.ts";
import { uniqueSuffix } from "./quest-helpers.ts";
import { APP_PORT } from "./urls.ts";

/**
 * Bad input answers with a clear message and changes nothing, signed in or out; it is never a
 * server error. And the local trial opened at 127.0.0.1 works: it is sent to APP_URL's localhost.
 */
test("JSON, broken forms, control characters and impossible dates are refused in words", async ({ page, signIn }) => {
  const json = await page.request.post("/login", { data: { email: "a@example.com" }, headers: SAME_ORIGIN });
  expect(json.status()).toBe(415);
  expect(await json.text()).toContain("This page takes a form");
  const broken = await page.request.post("/login", {
    headers: { ...SAME_ORIGIN, "content-type": "multipart/form-data; boundary=xyz" },
    data: '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nhalf',
  });
  expect(broken.status()).toBe(400);
  expect(await broken.text()).toContain("The form could not be read");
  for (const path of ["/projects/a%00b", "/tasks?q=%00x", "/campaigns?status=%00"]) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(400);
  }

  await signIn(page);
  const suffix = uniqueSuffix();
  const nul = await page.request.post("/projects/new", { form: { name: `Nul\u0000${suffix}`, slug: `nul-${suffix}` }, headers: SAME_ORIGIN });
  expect(nul.status()).toBe(400);
  expect(await nul.text()).toContain("invisible control character");
  expect((await page.request.get(`/projects/nul-${suffix}`)).status()).toBe(404);

  await test.step("a 2,000-character description typed with line breaks is accepted", async () => {
    await page.goto("/projects/new");
    await page.getByLabel("Name", { exact: true }).fill(`Long Lines ${suffix}`);
    const typed = Array.from({ length: 40 }, (_, i) => `${String(i).padStart(2, "0")}${"y".repeat(47)}`).join("\n") + "\n";
    expect(typed.length).toBe(2000);
    await page.getByLabel("Description").fill(typed);
    await page.getByRole("button", { name: "Create project" }).click();
    await expect(page).toHaveURL(`/projects/long-lines-${suffix}`);
  });

  await test.step("an image over 2 MB is refused in the form with the form's words; a 1.5 MB logo is saved", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");
    await page.goto(`/projects/long-lines-${suffix}/edit`);
    const logo = page.getByLabel("Logo");
    await logo.setInputFiles({ name: "big.png", mimeType: "image/png", buffer: Buffer.concat([png, Buffer.alloc(3 * 1024 * 1024)]) });
    await expect(page.getByRole("alert").filter({ hasText: "Choose an image of at most 2 MB (this one is 3.0 MB)." })).toBeVisible();
    await expect(logo).toHaveValue("");
    await logo.setInputFiles({ name: "fine.png", mimeType: "image/png", buffer: Buffer.concat([png, Buffer.alloc(1.5 * 1024 * 1024)]) });
    await expect(page.getByText("Choose an image of at most 2 MB")).toHaveCount(0);
    await page.getByRole("button", { name: "Save project" }).click();
    await expect(page).toHaveURL(`/projects/long-lines-${suffix}`);
    await expect(page.locator("img[src*='/uploads/']").first()).toBeVisible();
  });

  await test.step("impossible years in campaign and task forms get a field message (browsers refuse to type them; a forged form is answered)", async () => {
    const campaign = await page.request.post(`/projects/long-lines-${suffix}/campaigns/new`, {
      form: { name: "Year zero", slug: "year-zero", startsAt: "0000-01-01T10:00", endsAt: "2030-01-01T10:00" },
      headers: SAME_ORIGIN,
    });
    expect(campaign.status()).toBe(400);
    expect(await campaign.text()).toContain("Enter a date between 2000 and 2100");
    const task = await page.request.post(`/projects/long-lines-${suffix}/tasks/new`, {
      form: {
        title: "Far future",
        type: "visit_link",
        xp: "10",
        verification: "none",
        recurrence: "once",
        "config.url": "https://example.com",
        startsAt: "+275760-09-13T00:00",
        endsAt: "",
      },
      headers: SAME_ORIGIN,
    });
    expect(task.status()).toBe(400);
    expect(await task.text()).toContain("Enter a date between 2000 and 2100");
  });
});

test("the local trial opened at 127.0.0.1 goes to localhost, where signing in works", async ({ page, signIn }) => {
  await page.goto(`http://127.0.0.1:${APP_PORT}/projects`);
  await expect(page).toHaveURL(`http://localhost:${APP_PORT}/projects`);
  await signIn(page);
  await page.goto(`http://127.0.0.1:${APP_PORT}/projects/new`);
  await expect(page).toHaveURL(`http://localhost:${APP_PORT}/projects/new`);
  const suffix = uniqueSuffix();
  await page.getByLabel("Name", { exact: true }).fill(`Loopback ${suffix}`);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(`/projects/loopback-${suffix}`);
});
