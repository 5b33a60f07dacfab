import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { generatePrivateKey } from "viem/accounts";
import { installTestWallet, type TestWallet } from "../fakes/injected-wallet.ts";
import { CLOUD_HOSTS, stubReownCloud, type CloudStub } from "../fakes/reown-cloud.ts";
import { CLUSTER_TAG, expectConsoleError, pageWidth, test as base } from "./fixtures.ts";
import { APP_URL } from "./urls.ts";
import {
  approveSignature,
  cancelSignature,
  connectTestWallet,
  expect,
  headerWallet,
  modal,
  settled,
  short,
  signInWithWallet,
  signStep,
  switchNetwork,
} from "./wallet-helpers.ts";

/**
 * Wallet connection and wallet sign-in (SIWX) through the wallet modal (Reown AppKit), with a
 * fake injected wallet (tests/fakes/injected-wallet.ts) on the app's local chain (anvil, 31337;
 * playwright.config.ts turns it on) and Reown's cloud stubbed (tests/fakes/reown-cloud.ts).
 *
 * Most tests bypass the page's Content-Security-Policy so that every request reaches the stubs;
 * the last two run on the app's own CSP, which must let the wallet stack reach Reown's cloud,
 * its fonts and the chains' RPC: sign-in works there, and nothing the wallet needs is blocked.
 */
const test = base.extend<{ cloudReachable: boolean; cloud: CloudStub; wallet: TestWallet }>({
  cloudReachable: [true, { option: true }],
  cloud: async ({ page, cloudReachable }, provide) => {
    await provide(await stubReownCloud(page, { appOrigin: APP_URL, reachable: cloudReachable }));
  },
  wallet: async ({ page, cloud }, provide) => {
    await provide(await installTestWallet(page));
    // Whatever happened, the wallet stack asked no host that nobody stubbed; and with no project id
    // configured (as here), it sent nothing to the wallet vendor's cloud either (its analytics included).
    expect(cloud.unexpected, "requests to hosts outside the app and Reown's cloud").toEqual([]);
    expect(cloud.requests, "requests to the wallet vendor's cloud with no project id").toEqual([]);
  },
});

test.use({ bypassCSP: true });

test.describe.configure({ timeout: 60_000 });

const LOCAL = 31337;
const SEPOLIA = 11155111;

async function expectSignedOut(page: Page) {
  const response = await page.request.get("/dashboard", { maxRedirects: 0 });
  expect(response.status(), "/dashboard sends a signed-out visitor to /login").toBe(302);
  expect(response.headers()["location"]).toMatch(/^\/login/);
}

/** Client-side navigation to Settings › Profile: the page (and the wallet stack's memory) stays. */
async function openProfileSettings(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL("/settings/profile");
  await expect(page.getByRole("heading", { name: "Wallets" })).toBeVisible();
}

const walletList = (page: Page) => page.getByRole("list", { name: "Linked wallets" });

test("the page props name the local chain (31337), which the test wallet reads from", async ({ page, wallet }) => {
  await page.goto("/login");
  const answers = await page.evaluate(async () => {
    type Provider = { request: (args: { method: string; params?: unknown[] }) => Promise<unknown> };
    let provider: Provider | undefined;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<{ info: { rdns: string }; provider: Provider }>).detail;
      if (detail.info.rdns === "dev.questline.testwallet") provider = detail.provider;
    };
    window.addEventListener("eip6963:announceProvider", listener);
    window.dispatchEvent(new Event("eip6963:requestProvider"));
    window.removeEventListener("eip6963:announceProvider", listener);
    if (!provider) throw new Error("the test wallet did not announce itself");
    return {
      chainId: await provider.request({ method: "eth_chainId" }),
      accounts: await provider.request({ method: "eth_accounts" }),
      blockNumber: await provider.request({ method: "eth_blockNumber" }),
      balance: await provider.request({ method: "eth_getBalance", params: ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "latest"] }),
    };
  });
  expect(answers.chainId).toBe("0x7a69");
  expect(answers.accounts, "no account before the member approves").toEqual([]);
  expect(answers.blockNumber).toMatch(/^0x[0-9a-f]+$/);
  // anvil's first development account starts with 10 000 ETH.
  expect(BigInt(answers.balance as string)).toBeGreaterThan(0n);
  expect(wallet.calls).toEqual(["eth_chainId", "eth_accounts", "eth_blockNumber", "eth_getBalance"]);
});

test(
  "signs in with a wallet from the Welcome page, keeps the session over a reload, and signing out disconnects it",
  CLUSTER_TAG,
  async ({ page, wallet, signIn }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("dialog", { name: "Sign in" }).getByRole("button", { name: "Continue with a wallet" }).click();
    // The sign-in dialog gives way to the wallet modal.
    await expect(page.getByRole("dialog", { name: "Sign in" })).toBeHidden();
    await expect(modal(page).getByText("Connect Wallet")).toBeVisible();

    await connectTestWallet(page);
    await expect(signStep(page)).toBeVisible();
    expect(wallet.approved, "the member approved the connection").toBe(true);
    expect(wallet.signRequests, "nothing is signed before the member says so").toEqual([]);
    await approveSignature(page);

    await expect(page).toHaveURL("/dashboard");
    await expect(page.getByRole("heading", { name: `Welcome, ${short(wallet.address)}` })).toBeVisible();
    await expect(page.getByText("Signed in with your wallet")).toBeVisible();
    await expect(headerWallet(page, wallet)).toHaveText(short(wallet.address));
    await expect(signStep(page)).toBeHidden();
    expect(wallet.signRequests).toHaveLength(1);
    const message = wallet.signRequests[0]!;
    expect(message).toContain(`${new URL(APP_URL).host} wants you to sign in with your Ethereum account:\n${wallet.address}\n`);
    expect(message).toContain(`URI: ${APP_URL}\n`);
    expect(message).toContain(`Chain ID: ${LOCAL}\n`);

    // A reload keeps the session and reconnects the wallet; the modal asks the server whether this
    // address signed on this chain, and it did, so there is no new signature.
    const sessionAsked = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/wallet/session");
    await page.reload();
    await expect(page.getByRole("heading", { name: `Welcome, ${short(wallet.address)}` })).toBeVisible();
    await expect(headerWallet(page, wallet)).toBeVisible();
    expect(await (await sessionAsked).json()).toEqual({ signed: true });
    await expect(signStep(page)).toBeHidden();
    expect(wallet.signRequests).toHaveLength(1);
    // The first paint (the server's HTML, before any script) already shows the connected wallet,
    // and Balance the wallet's own tokens, not "Connect wallet".
    const firstPaint = await (await page.request.get("/dashboard")).text();
    expect(firstPaint).toContain(`aria-label="Wallet ${short(wallet.address)}"`);
    expect(firstPaint).not.toContain('aria-label="Connect wallet"');
    const balance = await (await page.request.get("/balance")).text();
    expect(balance).toContain(`${short(wallet.address)}, on chain`);
    expect(balance).not.toContain("Connect your wallet to see");
    // The deposit card agrees with the header: the remembered wallet, not "Connect a wallet to deposit".
    expect(balance).not.toContain("Connect a wallet to");

    const signOuts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/logout")) signOuts.push(request.url());
    });
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    await expectSignedOut(page);
    await expect.poll(() => wallet.approved, { message: "the site gave back the wallet's permission" }).toBe(false);
    expect(signOuts, "signing out disconnects the wallet without signing out twice").toHaveLength(1);

    // The wallet stays disconnected after a reload: signed in again by e-mail, the header offers to connect.
    await page.reload();
    await signIn(page);
    await page.goto("/dashboard");
    await expect(page.getByRole("banner").getByRole("button", { name: "Connect wallet" })).toBeVisible();
    await expect(page.getByText(short(wallet.address))).toHaveCount(0);
    expect(await (await page.request.get("/dashboard")).text()).toContain('aria-label="Connect wallet"');
  },
);

test("switching to Sepolia asks to sign for that chain: cancelling goes back to the local chain, signing adds Sepolia", async ({ page, wallet }) => {
  await signInWithWallet(page, wallet);
  await openProfileSettings(page);
  await expect(walletList(page).getByRole("listitem")).toHaveCount(1);
  await expect(walletList(page)).toContainText("Questline Local");

  await switchNetwork(page, "Sepolia");
  await expect(signStep(page)).toBeVisible();
  expect(wallet.chainId).toBe(SEPOLIA);

  // Cancelling a required sign-in returns to the last network with a session.
  await cancelSignature(page);
  await expect(signStep(page)).toBeHidden();
  await expect.poll(() => wallet.chainId).toBe(LOCAL);
  await expect(page).toHaveURL("/settings/profile");
  await expect(headerWallet(page, wallet)).toBeVisible();
  expect(wallet.approved).toBe(true);
  expect(wallet.signRequests).toHaveLength(1);

  await switchNetwork(page, "Sepolia");
  await approveSignature(page);
  await expect(signStep(page)).toBeHidden();
  await expect(page.getByText("Wallet signed on this network")).toBeVisible();
  expect(wallet.signRequests).toHaveLength(2);
  expect(wallet.signRequests[1]).toContain(`Chain ID: ${SEPOLIA}\n`);
  await expect(walletList(page)).toContainText("Questline Local, Sepolia");
  await expect(page.getByRole("button", { name: "Switch network" })).toBeDisabled();
});

test("after a reload, cancelling the signature for another network goes back to the network with a session", async ({ page, wallet }) => {
  await signInWithWallet(page, wallet);
  await page.reload();
  await expect(headerWallet(page, wallet)).toBeVisible();

  // The wallet modal's own network switch: account view, then the network list.
  await headerWallet(page, wallet).click();
  await modal(page).getByTestId("w3m-account-select-network").click();
  await modal(page).getByTestId("w3m-network-switch-Sepolia").click();
  await expect(signStep(page)).toBeVisible();
  expect(wallet.chainId).toBe(SEPOLIA);

  // The session from before the reload counts as the last network signed on .
  await cancelSignature(page);
  await expect(signStep(page)).toBeHidden();
  await expect.poll(() => wallet.chainId).toBe(LOCAL);
  await expect(headerWallet(page, wallet)).toBeVisible();
  expect(wallet.approved).toBe(true);
  expect(wallet.signRequests).toHaveLength(1);
  const response = await page.request.get("/dashboard", { maxRedirects: 0 });
  expect(response.status(), "still signed in").toBe(200);
});

test("cancelling the first signature disconnects the wallet and signs nobody in", async ({ page, wallet }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Continue with a wallet" }).click();
  await connectTestWallet(page);
  // No network has a session yet: cancelling disconnects the wallet.
  await cancelSignature(page);
  await expect(signStep(page)).toBeHidden();
  await expect.poll(() => wallet.approved).toBe(false);
  expect(wallet.signRequests).toEqual([]);
  await expect(page).toHaveURL("/login");
  await expectSignedOut(page);
});

test("Swap is not offered without the wallet service, and its address says how to turn it on", async ({ page, wallet }) => {
  await signInWithWallet(page, wallet);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Mint" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Swap" })).toHaveCount(0);
  await page.goto("/dashboard");
  await expect(page.getByText("Mint it at a fixed price or buy it in the token sale.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Swap" })).toHaveCount(0);
  await page.goto("/swap");
  await expect(page).toHaveTitle(/Swap/);
  await expect(page.getByText("Swaps are not set up on this server")).toBeVisible();
});

for (const theme of ["light", "dark"] as const) {
  test(`screenshot of Swap at 375 px, ${theme}`, async ({ page, context, wallet }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: theme });
    await context.addCookies([{ name: "appearance", value: theme, url: APP_URL }]);
    await signInWithWallet(page, wallet);
    await page.goto("/swap");
    await expect(page.getByText("Swaps are not set up on this server")).toBeVisible();
    expect(await pageWidth(page), "no sideways scroll").toBeLessThanOrEqual(375);
    await page.screenshot({ path: path.join(test.info().project.outputDir, "screenshots", `swap-phone-${theme}.png`), animations: "disabled" });
  });
}

test("an e-mail member links a wallet in Settings › Profile and can unlink it", async ({ page, wallet, signIn }) => {
  await signIn(page);
  await page.goto("/settings/profile");
  await expect(page.getByText("No wallet linked yet.")).toBeVisible();

  await page.getByRole("button", { name: "Link a wallet" }).click();
  await connectTestWallet(page);
  await approveSignature(page);
  await expect(page.getByText("Wallet linked")).toBeVisible();
  await expect(page).toHaveURL("/settings/profile");

  const item = walletList(page).getByRole("listitem");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(short(wallet.address));
  await expect(item).toContainText("Primary");
  await expect(item).toContainText("Questline Local");
  await expect(headerWallet(page, wallet)).toBeVisible();

  await page.reload();
  await expect(walletList(page).getByRole("listitem")).toContainText(short(wallet.address));

  // The member still has their e-mail, so the wallet may go.
  await item.getByRole("button", { name: "Unlink" }).click();
  await expect(page.getByText("Wallet unlinked")).toBeVisible();
  await expect(page.getByText("No wallet linked yet.")).toBeVisible();
});

test("a wallet-only member cannot unlink their only wallet", async ({ page, wallet }) => {
  expectConsoleError(/Failed to load resource: the server responded with a status of 400 .*\/settings\/profile/);
  await signInWithWallet(page, wallet);
  await page.goto("/settings/profile");
  const item = walletList(page).getByRole("listitem");
  await expect(item).toContainText(short(wallet.address));
  await expect(item).toContainText("Primary");

  await item.getByRole("button", { name: "Unlink" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "only way" })).toHaveText(
    "This wallet is your only way to sign in. Add an e-mail or another wallet first.",
  );
  await page.reload();
  await expect(walletList(page).getByRole("listitem")).toContainText(short(wallet.address));
});

test("a wallet that refuses to switch network gets a clear message", async ({ page, wallet }) => {
  await signInWithWallet(page, wallet);
  await openProfileSettings(page);
  wallet.refuseSwitch = true;

  await switchNetwork(page, "Sepolia");
  await expect(page.getByText("The wallet refused to switch to Sepolia.")).toBeVisible();
  expect(wallet.calls).toContain("wallet_switchEthereumChain");
  expect(wallet.chainId).toBe(LOCAL);
  await expect(signStep(page)).toBeHidden();
  await expect(headerWallet(page, wallet)).toBeVisible();
  await expect(page.getByRole("button", { name: "Switch network" })).toBeEnabled();
});

test("a signature made with another key is refused and the member stays signed out", async ({ page, wallet }) => {
  // The server refuses the signature (401) and AppKit logs the server's reason before it shows
  // "Error signing message" (its own log tag is spelt "SWIXUtil").
  expectConsoleError(/Failed to load resource: the server responded with a status of 401 .*\/api\/auth\/siwe\/verify/);
  expectConsoleError(/SWIXUtil:requestSignMessage Error: Unauthorized: the signature does not match the wallet in the message/);
  wallet.signWithKey(generatePrivateKey());

  await page.goto("/login");
  await page.getByRole("button", { name: "Continue with a wallet" }).click();
  await connectTestWallet(page);
  await approveSignature(page);

  await expect(modal(page).getByText("Error signing message")).toBeVisible();
  await expect(signStep(page)).toBeVisible();
  expect(wallet.signRequests).toHaveLength(1);
  await expect(page).toHaveURL("/login");
  await expectSignedOut(page);
});

test.describe("with Reown's cloud unreachable", () => {
  test.use({ cloudReachable: false });

  test("the page keeps working and the injected wallet still connects and signs in", async ({ page, wallet }) => {
    // Only the browser's own report of each failed request to Reown's hosts is allowed.
    const hosts = CLOUD_HOSTS.map((h) => h.replaceAll(".", "\\.")).join("|");
    expectConsoleError(new RegExp(`^console\\.error on [^:]+:[^ ]* Failed to load resource: net::ERR_INTERNET_DISCONNECTED \\(https://(${hosts})/`));

    await signInWithWallet(page, wallet);
    await expect(page.getByRole("heading", { name: `Welcome, ${short(wallet.address)}` })).toBeVisible();

    // The rest of the app still works.
    await openProfileSettings(page);
    await expect(walletList(page)).toContainText(short(wallet.address));
  });
});

for (const theme of ["light", "dark"] as const) {
  test(`screenshots of the wallet modal and the linked wallets, ${theme}`, async ({ page, context, wallet, signIn }) => {
    await page.emulateMedia({ colorScheme: theme });
    await context.addCookies([{ name: "appearance", value: theme, url: APP_URL }]);
    const shoot = (name: string, target: Page | Locator = page) =>
      target.screenshot({ path: path.join(test.info().project.outputDir, "screenshots", `${name}-${theme}.png`), animations: "disabled" });

    await signIn(page);
    await page.goto("/settings/profile");
    if (theme === "dark") await expect(page.locator("html")).toHaveClass("dark");
    else await expect(page.locator("html")).not.toHaveClass(/dark/);

    await page.getByRole("button", { name: "Link a wallet" }).click();
    await expect(modal(page).locator("wui-list-wallet", { hasText: "Questline Test Wallet" })).toBeVisible();
    // Without a wallet-vendor project id (none here), nothing that needs its cloud is offered:
    // no WalletConnect, no wallet search, no e-mail or social sign-in.
    await expect(modal(page).locator("wui-list-wallet")).toHaveCount(1);
    await expect(modal(page).getByText(/WalletConnect|Search Wallet|Continue with a social/)).toHaveCount(0);
    await settled(modal(page).locator("wui-card").first());
    await shoot("wallet-connect");
    await connectTestWallet(page);
    await expect(signStep(page)).toBeVisible();
    await settled(modal(page).locator("wui-card").first());
    await shoot("wallet-sign");
    await approveSignature(page);
    await expect(walletList(page)).toContainText(short(wallet.address));
    // The "Wallets" card: its title's parent is the card header, whose parent is the card.
    await shoot("wallet-linked", page.getByRole("heading", { name: "Wallets" }).locator("xpath=../.."));
  });
}

test.describe("on the app's own Content-Security-Policy", () => {
  test.use({ bypassCSP: false });

  /** What the browser reports when the CSP stops a request to Reown's hosts or to the local chain. */
  const walletTargets = String.raw`(https://(api\.web3modal\.org|rpc\.walletconnect\.org|pulse\.walletconnect\.org)|http://127\.0\.0\.1:\d+)/`;
  const CSP_BLOCKED = [
    /Loading the font 'https:\/\/fonts\.reown\.com\/[^']+' violates the following Content Security Policy directive: "font-src 'self' data:"/,
    new RegExp(String.raw`Connecting to '${walletTargets}[^']*' violates the following Content Security Policy directive: "connect-src 'self'"`),
    new RegExp(String.raw`Fetch API cannot load ${walletTargets}\S*\. Refused to connect because it violates the document's Content Security Policy`),
  ];

  test("wallet sign-in works under the app's own CSP", async ({ page, wallet }) => {
    for (const pattern of CSP_BLOCKED) expectConsoleError(pattern);
    await signInWithWallet(page, wallet);
    await expect(page.getByRole("heading", { name: `Welcome, ${short(wallet.address)}` })).toBeVisible();
  });

  test("nothing the wallet needs is blocked by the CSP", async ({ page, wallet }) => {
    const blocked: string[] = [];
    page.on("console", (message) => {
      if (CSP_BLOCKED.some((pattern) => pattern.test(message.text()))) blocked.push(message.text());
    });
    await signInWithWallet(page, wallet);
    expect(blocked).toEqual([]);
  });
});
