import { expect, SAME_ORIGIN, test } from "./fixtures.ts";

/**
 * Only the authentication endpoints the product uses answer over HTTP: the rest of the library
 * (password reset codes, sign-up, profile updates that skip the profile's rules, account
 * deletion) is switched off, signed in or not.
 */
const CLOSED = [
  ["POST", "/api/auth/email-otp/request-password-reset", { email: "x@example.com" }],
  ["POST", "/api/auth/forget-password/email-otp", { email: "x@example.com" }],
  ["POST", "/api/auth/request-password-reset", { email: "x@example.com" }],
  ["POST", "/api/auth/sign-up/email", { email: "x@example.com", password: "long enough", name: "x" }],
  ["POST", "/api/auth/sign-in/email", { email: "x@example.com", password: "guess" }],
  ["POST", "/api/auth/sign-in/email-otp", { email: "x@example.com", otp: "123456" }],
  ["POST", "/api/auth/update-user", { name: "x".repeat(5000), image: "javascript:alert(1)" }],
  ["POST", "/api/auth/delete-user", {}],
  ["POST", "/api/auth/change-email", { newEmail: "y@example.com" }],
  ["GET", "/api/auth/list-sessions", undefined],
  ["GET", "/api/auth/get-session", undefined],
] as const;

test("auth endpoints the product does not use answer 404, and the profile keeps its rules", async ({ page, signIn }) => {
  await signIn(page);
  for (const [method, path, data] of CLOSED) {
    const response = method === "GET" ? await page.request.get(path) : await page.request.post(path, { data, headers: SAME_ORIGIN });
    expect(response.status(), `${method} ${path}`).toBe(404);
  }
  // The wallet's sign-in nonce (used by the wallet modal) still answers.
  const nonce = await page.request.post("/api/auth/siwe/nonce", { data: {}, headers: SAME_ORIGIN });
  expect(nonce.status()).toBe(200);

  await page.goto("/settings/profile");
  await expect(page.getByLabel("Display name")).not.toHaveValue("x".repeat(5000));
});
