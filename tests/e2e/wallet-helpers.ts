import type { Locator, Page } from "@playwright/test";
import { installTestWallet, type TestWallet } from "../fakes/injected-wallet.ts";
import { stubReownCloud, type CloudStub } from "../fakes/reown-cloud.ts";
import { expect as baseExpect, test as base, loaderData } from "./fixtures.ts";
import { APP_URL } from "./urls.ts";

/**
 * Helpers shared by the specs that use the test wallet (tests/fakes/injected-wallet.ts) through
 * the wallet modal (Reown AppKit).
 */

// The wallet stack is a large download that is parsed on first use (and again after each reload):
// on a busy 2-core machine the modal may take more than the suite's default 5 s to appear.
export const expect = baseExpect.configure({ timeout: 15_000 });

/**
 * A test with the wallet vendor's cloud stubbed (reachable) and the test wallet installed; at
 * the end it checks the wallet stack asked no host that nobody stubbed.
 */
export const walletTest = base.extend<{ cloud: CloudStub; wallet: TestWallet }>({
  cloud: async ({ page }, provide) => {
    await provide(await stubReownCloud(page, { appOrigin: APP_URL, reachable: true }));
  },
  wallet: async ({ page, cloud }, provide) => {
    await provide(await installTestWallet(page));
    expect(cloud.unexpected, "requests to hosts outside the app and Reown's cloud").toEqual([]);
    // No project id is configured in the tests: nothing may reach the wallet vendor's cloud.
    expect(cloud.requests, "requests to the wallet vendor's cloud with no project id").toEqual([]);
  },
});

/** An address as shown: `0x`, the first 4 characters after it, an ellipsis, the last 4. */
export const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** The wallet modal (AppKit's web component; Playwright's locators reach into its shadow roots). */
export const modal = (page: Page) => page.locator("w3m-modal");
export const signStep = (page: Page) => modal(page).getByText("needs to connect to your wallet");

/** In the open wallet modal: the test wallet is listed as installed; choosing it connects. */
export async function connectTestWallet(page: Page) {
  const entry = modal(page).locator("wui-list-wallet", { hasText: "Questline Test Wallet" });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText(/installed/i);
  await entry.click();
}

/** The sign step is showing: approve, as the member would in their wallet. */
export async function approveSignature(page: Page) {
  await expect(signStep(page)).toBeVisible();
  await modal(page).getByRole("button", { name: "Sign", exact: true }).click();
}

export async function cancelSignature(page: Page) {
  await expect(signStep(page)).toBeVisible();
  await modal(page).getByRole("button", { name: "Cancel", exact: true }).click();
}

/** The header's wallet button, showing the connected address. */
export const headerWallet = (page: Page, wallet: TestWallet) => page.getByRole("banner").getByRole("button", { name: `Wallet ${short(wallet.address)}` });

/** Signs in from /login with the test wallet, as a new wallet-only member. */
export async function signInWithWallet(page: Page, wallet: TestWallet) {
  await page.goto("/login");
  await page.getByRole("button", { name: "Continue with a wallet" }).click();
  await connectTestWallet(page);
  await approveSignature(page);
  await expect(page).toHaveURL("/dashboard");
  await expect(headerWallet(page, wallet)).toBeVisible();
}

/** Waits until `locator` stops moving and resizing (the modal animates its height between views). */
export async function settled(locator: Locator) {
  let last = "";
  await expect
    .poll(
      async () => {
        const box = JSON.stringify(await locator.boundingBox());
        const same = box === last;
        last = box;
        return same;
      },
      { intervals: [300] },
    )
    .toBe(true);
}

/** A local chain's RPC URL (the first's unless `chainId` names another), from the page props (the root loader's `chains.localRpcs`). */
export async function localRpcUrl(page: Page, chainId = 31337): Promise<string> {
  const url = (await loaderData<{ chains?: { localRpcs?: Partial<Record<number, string>> } }>(page, "root"))?.chains?.localRpcs?.[chainId];
  if (!url) throw new Error(`the page props name no local chain ${chainId}`);
  return url;
}

/** One JSON-RPC call to the local chain (anvil's test methods: evm_increaseTime, anvil_setBalance…). */
export async function chainRpc<T = unknown>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Picks `network` in the page's network picker and asks the wallet to switch to it. */
export async function switchNetwork(page: Page, network: string) {
  await page.getByLabel("Network", { exact: true }).selectOption({ label: network });
  await page.getByRole("button", { name: "Switch network" }).click();
}
