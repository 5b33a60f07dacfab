import type { APIRequestContext, Page } from "@playwright/test";
import { expectConsoleError, pageWidth, SAME_ORIGIN } from "./fixtures.ts";
import { expectFieldError, localDateTime, screenshot, uniqueSuffix } from "./quest-helpers.ts";
import { APP_URL } from "./urls.ts";
import { chainRpc, expect, localRpcUrl, signInWithWallet, walletTest as test } from "./wallet-helpers.ts";

/**
 * The task form's on-chain types (issue #37) on the local chain: an owner makes one task of each,
 * is refused on the field for bad input first (no code at the address, a function that is not in
 * the pasted ABI, an event that does not parse, a date outside the campaign), then saves good ones;
 * a member sees each task's instructions and buttons. The platform's QuestToken stands in for the
 * contract a project would name (its `Transfer` event, its `transfer` function).
 */

test.describe.configure({ mode: "serial", timeout: 180_000 });

/** QuestToken: the first contract anvil's first account deploys on a fresh chain (the server's, at start). */
const QUEST = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
/** An address with no code on the local chain. */
const NO_CODE = "0x000000000000000000000000000000000000dEaD";
const QUEST_ABI = JSON.stringify([
  {
    type: "function",
    name: "transfer",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  {
    type: "function",
    name: "approve",
    stateMutability: "nonpayable",
    inputs: [
      { name: "spender", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  { type: "event", name: "Transfer", inputs: [{ name: "from", type: "address", indexed: true }] },
]);
const TRANSFER = "Transfer(address indexed from, address indexed to, uint256 value)";

/** The tasks the owner saved, for the member's test: title → address. */
const saved = new Map<string, string>();

async function post(request: APIRequestContext, url: string, form: Record<string, string>) {
  const response = await request.post(url, { form, headers: SAME_ORIGIN, maxRedirects: 0 });
  expect(response.status(), `POST ${url} redirects to what it saved`).toBe(302);
}

/** A new task form of `type`, titled. */
async function newTask(page: Page, project: string, type: string, title: string) {
  await page.goto(`/projects/${project}/tasks/new`);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: type });
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Published", { exact: true }).check();
}

async function save(page: Page) {
  await page.getByRole("button", { name: "Create task" }).click();
}

async function savedAs(page: Page, title: string) {
  await expect(page).toHaveURL(/\/tasks\/[^/]+$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  saved.set(title, new URL(page.url()).pathname);
}

test("an owner makes one task of each on-chain type, refused on the field for bad input first", async ({ page, context, signIn }) => {
  expectConsoleError(/status of 400/);
  await signIn(page);
  const suffix = uniqueSuffix();
  const project = `chain-${suffix}`;
  await post(page.request, "/projects/new", {
    name: `Chain ${suffix}`,
    slug: project,
    description: "",
    categoryId: "",
    website: "",
    xUrl: "",
    discordUrl: "",
    telegramUrl: "",
  });
  await post(page.request, `/projects/${project}/campaigns/new`, {
    name: `Chain week ${suffix}`,
    slug: `week-${suffix}`,
    description: "",
    startsAt: localDateTime(-60),
    endsAt: localDateTime(24 * 60),
    published: "on",
  });
  // QuestToken is there: the chain the server started.
  await page.goto("/");
  expect(await chainRpc<string>(await localRpcUrl(page), "eth_getCode", [QUEST, "latest"])).not.toBe("0x");

  // Hold an NFT: no contract at the address.
  await newTask(page, project, "Hold an NFT", "Hold the collection");
  await expect(page.getByLabel("Network", { exact: true })).toHaveValue("31337");
  await page.getByLabel("Collection contract").fill(NO_CODE);
  await page.getByLabel("Collection name").fill("Questline Explorers");
  await page.getByLabel("Where members do it").fill("/demo-dapp");
  await save(page);
  await expectFieldError(page, "Collection contract", `No contract is deployed at ${NO_CODE} on Questline Local`);
  await expect(page.getByLabel("Collection name")).toHaveValue("Questline Explorers");
  await page.getByLabel("Collection contract").fill(QUEST);
  await page.getByLabel("Standard").selectOption("erc1155");
  await save(page);
  await expectFieldError(page, "Token ids", /ERC-1155 contract counts per token id/);
  await page.getByLabel("Standard").selectOption("erc721");
  await save(page);
  await savedAs(page, "Hold the collection");

  // Call a contract: the ABI lists its functions; a line that is not one of them is refused.
  await newTask(page, project, "Call a contract", "Send QUEST");
  await page.getByLabel("Contract", { exact: true }).fill(QUEST);
  await page.getByLabel("Paste the contract's ABI (optional)").fill(QUEST_ABI);
  await expect(page.getByRole("group", { name: "Functions of the ABI" }).getByRole("checkbox")).toHaveCount(2);
  await page.getByLabel("Functions", { exact: true }).fill("swapExactTokensForTokens(uint256,uint256,address[],address,uint256)");
  await page.setViewportSize({ width: 375, height: 900 });
  await save(page);
  await expectFieldError(page, "Functions", "swapExactTokensForTokens(uint256,uint256,address[],address,uint256) is not a function of the pasted ABI");
  expect(await pageWidth(page), "the form fits a phone").toBeLessThanOrEqual(375);
  await screenshot(page, "onchain-form-contract-call-refused-375");
  await page.getByLabel("Functions", { exact: true }).fill("");
  await page.getByRole("checkbox", { name: "transfer(address,uint256)" }).check();
  await expect(page.getByLabel("Functions", { exact: true })).toHaveValue("transfer(address,uint256)");
  await page.getByLabel("Minimum value sent (optional)").fill("0.001");
  await save(page);
  await savedAs(page, "Send QUEST");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Emit an event: a signature that does not parse, then a member argument that is not indexed.
  await newTask(page, project, "Emit an event", "Receive QUEST");
  await page.getByLabel("Contract", { exact: true }).fill(QUEST);
  await page.getByLabel("Event", { exact: true }).fill("Transfer(address indexed from, address");
  await page.getByLabel("Member's address is the argument").fill("to");
  await save(page);
  await expectFieldError(page, "Event", /does not parse as an event/);
  await page.getByLabel("Event", { exact: true }).fill(TRANSFER);
  await page.getByLabel("Member's address is the argument").fill("value");
  await save(page);
  await expectFieldError(page, "Member's address is the argument", "value is not an indexed address argument of Transfer: choose from or to");
  await page.getByLabel("Member's address is the argument").fill("to");
  await page.getByLabel("Numeric argument (optional)").fill("value");
  await page.getByLabel("At least").fill("1000");
  await save(page);
  await savedAs(page, "Receive QUEST");

  // Wallet history in the campaign: an opening before the campaign's start is refused on its field.
  await newTask(page, project, "Wallet history", "An active wallet");
  await page.getByLabel("At least N transactions sent").fill("1");
  await page.getByLabel("Campaign", { exact: true }).selectOption({ label: `Chain week ${suffix} (live)` });
  await page.getByLabel("Opens", { exact: true }).fill(localDateTime(-24 * 60));
  await save(page);
  await expectFieldError(page, "Opens", /^The campaign runs from .* to .*: keep the task inside it$/);
  await page.getByLabel("Opens", { exact: true }).fill("");
  await save(page);
  await savedAs(page, "An active wallet");

  // Hold a token at a block: the re-check goes away (a snapshot cannot change).
  await newTask(page, project, "Hold a token", "Hold QUEST at a block");
  await page.getByLabel("Token address").fill(NO_CODE);
  await page.getByLabel("Minimum balance").fill("1");
  await expect(page.getByLabel("Re-check before rewards are paid")).toBeChecked();
  await page.getByLabel("At block (optional)").fill("1");
  await expect(page.getByLabel("Re-check before rewards are paid")).toBeHidden();
  await save(page);
  await expectFieldError(page, "Token address", `No contract is deployed at ${NO_CODE} on Questline Local`);
  await expect(page.getByLabel("At block (optional)")).toHaveValue("1");
  await page.getByLabel("Token address").fill(QUEST);
  await save(page);
  await savedAs(page, "Hold QUEST at a block");

  // The edit form shows what was saved.
  await page.goto(`${saved.get("Send QUEST")}/edit`);
  await expect(page.getByLabel("Functions", { exact: true })).toHaveValue("transfer(address,uint256)");
  await expect(page.getByLabel("Minimum value sent (optional)")).toHaveValue("0.001");
  await context.addCookies([{ name: "appearance", value: "dark", url: APP_URL }]);
  await page.goto(`${saved.get("Receive QUEST")}/edit`);
  await expect(page.locator("html")).toHaveClass("dark");
  await expect(page.getByLabel("Event", { exact: true })).toHaveValue(TRANSFER);
  await screenshot(page, "onchain-form-event-edit-dark");
});

test("a member sees each on-chain task's instructions and buttons", async ({ page, context, newPage, signIn, wallet }) => {
  test.skip(saved.size < 5, "the owner's test saved the tasks");
  // Signed in by e-mail with no wallet: told to link one first.
  const other = await newPage();
  await signIn(other);
  await other.goto(saved.get("Hold the collection")!);
  await expect(other.getByText("Questline Explorers")).toBeVisible();
  await expect(other.getByRole("link", { name: "Link a wallet in Settings › Profile first" })).toBeVisible();
  await expect(other.getByRole("button", { name: "Check" })).toHaveCount(0);

  // Signed in with a wallet: the tasks' buttons.
  await signInWithWallet(page, wallet);
  await page.goto(saved.get("Send QUEST")!);
  await expect(page.getByText("transfer(address,uint256)")).toBeVisible();
  await expect(page.getByText("0.001 ETH")).toBeVisible();
  await expect(page.getByText(QUEST)).toBeVisible(); // a local chain has no explorer: the address in full, to copy
  await expect(page.getByRole("button", { name: "Copy the contract's address" })).toBeVisible();
  await expect(page.getByLabel("Transaction hash")).toBeVisible();
  await expect(page.getByRole("button", { name: "Check transaction" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Find my transaction" })).toBeVisible();
  await expect(page.getByText("Checked on Questline Local")).toBeVisible();
  // A hash that is not one is refused on its field, and stays.
  expectConsoleError(/status of 400/);
  await page.getByLabel("Transaction hash").fill("0x1234");
  await page.getByRole("button", { name: "Check transaction" }).click();
  await expectFieldError(page, "Transaction hash", "Paste the transaction's hash: 0x and 64 hexadecimal characters");
  await expect(page.getByLabel("Transaction hash")).toHaveValue("0x1234");

  await page.goto(saved.get("Hold the collection")!);
  await expect(page.getByRole("link", { name: /Go to \/demo-dapp/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Check" })).toBeVisible();

  await page.goto(saved.get("Receive QUEST")!);
  await expect(page.getByText(TRANSFER)).toBeVisible();
  await expect(page.getByText(/Nothing to paste/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Check" })).toBeVisible();

  await page.goto(saved.get("An active wallet")!);
  await expect(page.getByText(/sent at least 1 transaction/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Check" })).toBeVisible();

  await page.goto(saved.get("Hold QUEST at a block")!);
  await expect(page.getByText(/at block 1 \(the balance is read as it was then\)/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Check" })).toBeVisible();

  await page.setViewportSize({ width: 375, height: 900 });
  await context.addCookies([{ name: "appearance", value: "dark", url: APP_URL }]);
  await page.goto(saved.get("Send QUEST")!);
  await expect(page.locator("html")).toHaveClass("dark");
  expect(await pageWidth(page), "the task page fits a phone").toBeLessThanOrEqual(375);
  await screenshot(page, "onchain-task-contract-call-member-375-dark");
});
