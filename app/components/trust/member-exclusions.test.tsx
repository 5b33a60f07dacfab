import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { AppealQueue } from "./appeal-queue";
import { MemberExclusions, type OwnExclusion } from "./member-exclusions";
import { MemberTrustCard } from "./member-trust-card";

const T = new Date("2026-11-20T12:00:00Z");
function render(element: React.ReactNode) {
  const Stub = createRoutesStub([{ path: "/", Component: () => element }]);
  return renderToStaticMarkup(<Stub />);
}
const exclusion = (over: Partial<OwnExclusion>): OwnExclusion => ({
  id: "e1",
  project: { name: "Pixel", slug: "pixel" },
  scope: "pool",
  target: "Season reward",
  reason: "Funded by the same address as 40 others",
  createdAt: T,
  liftedAt: null,
  liftReason: null,
  appeal: null,
  appealBlocked: null,
  ...over,
});

describe("the member's Trust page and the team's appeals", () => {
  it("says a score is not computed yet, or shows it with its reasons", () => {
    expect(render(<MemberTrustCard trust={null} />)).toContain("Your score has not been computed yet.");
    const shown = render(
      <MemberTrustCard
        trust={{ score: 35, flagged: true, computedAt: T, reasons: [{ code: "funder", points: -40, words: "Funded by the same address as 37 other members" }] }}
      />,
    );
    expect(shown).toContain("Funded by the same address as 37 other members");
    expect(shown).toContain("-40");
    expect(shown).toContain("Flagged to project teams");
  });

  it("offers an appeal only where one can be made, and shows the team's answer", () => {
    const html = render(
      <MemberExclusions
        exclusions={[
          exclusion({}),
          exclusion({
            id: "e2",
            appeal: { status: "denied", message: "They are mine", answer: "The funder is a farm's", createdAt: T, decidedAt: T },
            appealBlocked: "Denied less than a day ago: you may appeal again 24 hours after the answer.",
          }),
        ]}
      />,
    );
    expect(html.match(/Send appeal/g)).toHaveLength(1);
    expect(html).toContain("Appeal your exclusion from Season reward");
    expect(html).toContain("The funder is a farm&#x27;s");
    expect(render(<MemberExclusions exclusions={[]} />)).toContain("No project has excluded you from its rewards.");
  });

  it("lists pending appeals with Uphold and Deny, but not on the viewer's own", () => {
    const appeal = {
      id: "a1",
      userId: "ann",
      name: "Ann",
      identity: { wallets: ["0x1234"], socials: [] },
      message: "These wallets are mine",
      createdAt: T,
      exclusion: { target: "Drop", reason: "Farm", createdAt: T },
    };
    const html = render(<AppealQueue appeals={[appeal]} viewerId="rev" />);
    expect(html).toContain("Uphold");
    expect(html).toContain("Deny");
    expect(render(<AppealQueue appeals={[appeal]} viewerId="ann" />)).not.toContain("Uphold");
  });
});
