import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { Asset } from "~/modules/ledger/assets";
import { AirdropForm, type AirdropToken } from "./airdrop-form";

const TOKENS: AirdropToken[] = [
  { asset: "QUEST:31337", label: "QUEST on Questline Local", treasury: 0n },
  { asset: "QUEST:31338", label: "QUEST on Questline Local B", treasury: 10n ** 18n },
];
const NEW = {
  name: "",
  slug: "",
  description: "",
  asset: "",
  rule: "pro_rata",
  total: "",
  rankAmounts: "",
  minPoints: "0",
  startsAt: null,
  endsAt: null,
  claimDeadline: null,
  published: false,
};

/** A new airdrop's form as the server renders it. */
function render(rewardAsset: Asset | null) {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <AirdropForm
          isNew
          defaults={NEW}
          errors={{}}
          tokens={TOKENS}
          locked={false}
          pending={false}
          submitLabel="Create airdrop"
          cancelTo="/a"
          addressPrefix="/a/"
          rewardAsset={rewardAsset}
          fundTo="/projects/p/rewards"
        />
      ),
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={["/"]} />);
}

const selected = (html: string) => html.match(/<option value="([^"]+)" selected="">/)?.[1] ?? null;

describe("a new airdrop's token", () => {
  it("starts on the project's rewards token where an airdrop can pay it", () => {
    const html = render("QUEST:31338");
    expect(selected(html)).toBe("QUEST:31338");
    expect(html).toContain("The treasury holds 1 QUEST.");
  });

  it("starts on the first token, says why, and links to funding, where it cannot", () => {
    const html = render("USDC:31338");
    expect(selected(html)).toBe("QUEST:31337");
    expect(html).toContain("The project&#x27;s rewards token, USDC on Questline Local B, cannot be airdropped here");
    expect(html).toMatch(/The treasury holds no QUEST yet: fund it from <a[^>]*href="\/projects\/p\/rewards"/);
  });

  it("without a rewards token, starts on the first token as before", () => {
    expect(selected(render(null))).toBe("QUEST:31337");
  });
});
