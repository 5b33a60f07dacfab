import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { RewardPoolForm, type TreasuryAsset } from "./reward-pool-form";

const NEW = { kind: "token" as const, asset: "", distribution: "fcfs", winners: "", amount: "", total: "", rankAmounts: "" };

/** The form as the server renders it (the markup a browser first gets). */
function render(asset: string, treasury: TreasuryAsset[], defaultsDecimals: number | null = null) {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <RewardPoolForm
          defaults={{ ...NEW, asset }}
          errors={{}}
          pending={false}
          submitLabel="Create reward"
          cancelTo="/c"
          treasury={treasury}
          defaultsDecimals={defaultsDecimals}
          kindFixed={false}
          fundTo="/projects/p/rewards"
        />
      ),
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={["/"]} />);
}

const selected = (html: string) => html.match(/<option value="([^"]+)" selected="">/)?.[1] ?? null;

describe("the reward form's token", () => {
  it("starts on the project's rewards token, with the treasury's other tokens to choose from", () => {
    const html = render("USDC:31338", [
      { asset: "QUEST:31337", balance: 10n ** 18n, decimals: 18 },
      { asset: "USDC:31338", balance: 2_500_000n, decimals: 6 },
    ]);
    expect(selected(html)).toBe("USDC:31338");
    expect(html).toContain('<option value="QUEST:31337">QUEST on Questline Local</option>');
    // USDC's balance and the amounts in its own 6 decimals, said in the hint.
    expect(html).toContain("The treasury holds 2.5 USDC.");
    expect(html).toContain("Amounts are in USDC, which has 6 decimals: type at most 6 after the point.");
  });

  it("offers the rewards token while the treasury holds none of it, and says how to fund it", () => {
    const html = render("USDC:31338", [{ asset: "QUEST:31337", balance: 10n ** 18n, decimals: 18 }], 6);
    expect(selected(html)).toBe("USDC:31338");
    expect(html).toContain("USDC on Questline Local B (none in the treasury)");
    expect(html).toMatch(
      /The treasury holds no USDC on Questline Local B yet: <a[^>]*href="\/projects\/p\/rewards"[^>]*>fund the project&#x27;s treasury<\/a> first, or choose a token it holds/,
    );
    expect(html).toContain("Amounts are in USDC, which has 6 decimals");
  });

  it("without a rewards token, starts on the treasury's first token as before", () => {
    expect(selected(render("", [{ asset: "QUEST:31337", balance: 1n, decimals: 18 }]))).toBe("QUEST:31337");
  });
});
