import { deflateSync, crc32 } from "node:zlib";
import { expect, expectConsoleError, SAME_ORIGIN, test } from "./fixtures.ts";
import { APP_URL } from "./urls.ts";

/** A valid PNG of `size`×`size` pixels of one colour, built byte by byte (signature, IHDR, IDAT, IEND). */
function tinyPng(size = 2, rgb: [number, number, number] = [187, 244, 81]) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.from([0, ...Array.from({ length: size }, () => rgb).flat()]); // filter 0, then pixels
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function uniqueUsername(prefix: string) {
  return `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/settings/profile");
});

test("a bad username is explained and what was typed stays", async ({ page }) => {
  expectConsoleError(/status of 400/);
  await page.getByLabel("Display name").fill("Ada");
  await page.getByLabel("Username").fill("a b!");
  await page.getByRole("button", { name: "Save profile" }).click();

  await expect(page.getByText("Use only letters, digits and underscores")).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveValue("a b!");
  await expect(page.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Display name")).toHaveValue("Ada");
});

test("a valid username is saved and shown after a reload", async ({ page }) => {
  const username = uniqueUsername("ada");
  await page.getByLabel("Display name").fill("  Ada Lovelace ");
  // Usernames are kept in lower case: the field shows what was kept once saved, as after a reload.
  await page.getByLabel("Username").fill(username.toUpperCase());
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved")).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveValue(username);
  await expect(page.getByLabel("Display name")).toHaveValue("Ada Lovelace");

  await page.reload();
  await expect(page.getByLabel("Username")).toHaveValue(username);
  await expect(page.getByLabel("Display name")).toHaveValue("Ada Lovelace");
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Welcome, Ada Lovelace" })).toBeVisible();
  await expect(page.getByText(`@${username}`)).toBeVisible();
});

test("a username another member has is refused", async ({ page, playwright, signIn, extraHTTPHeaders }) => {
  expectConsoleError(/status of 400/);
  const username = uniqueUsername("taken");
  const other = await playwright.request.newContext({ baseURL: APP_URL, extraHTTPHeaders });
  await signIn(other);
  const saved = await other.post("/settings/profile", {
    multipart: { intent: "profile", name: "Other member", username },
    headers: SAME_ORIGIN,
  });
  expect(saved.status()).toBe(200);
  await other.dispose();

  await page.getByLabel("Display name").fill("Me");
  await page.getByLabel("Username").fill(username);
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("That username is taken")).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveValue(username);
});

test("uploads a PNG avatar and refuses a file that is not an image", async ({ page }) => {
  expectConsoleError(/status of 400/);
  await page.getByLabel("Display name").fill("Pixel");
  await page.getByLabel("Username").fill(uniqueUsername("pixel"));

  await page.getByLabel("Avatar").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("just text") });
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Choose a PNG, JPEG, GIF or WebP image")).toBeVisible();

  await page.getByLabel("Avatar").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: tinyPng() });
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved")).toBeVisible();

  const avatar = page.locator('img[src^="/avatars/"]').first();
  await expect(avatar).toBeVisible();
  const src = await avatar.getAttribute("src");
  const image = await page.request.get(src!);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
  // The image really decoded in the browser.
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
});

test("changes the e-mail address with a code sent to the new one", async ({ page, inbox, uniqueEmail }) => {
  expectConsoleError(/status of 400/);
  // The address the member signs in with already (in capitals too) is not a change.
  const current = (await page
    .getByText(/^You sign in with /)
    .locator("strong")
    .textContent())!;
  await page.getByLabel("New e-mail").fill(current.toUpperCase());
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("That is already your e-mail address.")).toBeVisible();

  const newEmail = uniqueEmail("new");
  await page.getByLabel("New e-mail").fill(newEmail);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText(`We sent a code to ${newEmail}`)).toBeVisible();

  const mail = await inbox.latestMail(newEmail);
  expect(mail.subject).toMatch(/^Confirm your new Questline e-mail: \d{6}$/);
  await page.getByLabel(`Code sent to ${newEmail}`).fill(inbox.codeFrom(mail));
  await page.getByRole("button", { name: "Confirm new e-mail" }).click();

  await expect(page.getByText("Your e-mail is changed")).toBeVisible();
  await expect(page.getByText(`You sign in with ${newEmail}.`)).toBeVisible();
  await page.reload();
  await expect(page.getByText(`You sign in with ${newEmail}.`)).toBeVisible();
});
