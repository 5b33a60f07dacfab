import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { gateValues } from "~/modules/trust/gate-values";
import { GateFields } from "./gate-fields";
import { GatePanel } from "./gate-panel";

const NETWORKS = [{ id: 31337, name: "Questline Local" }];

describe("the gate editor as the server renders it", () => {
  it("posts a saved gate's rules by index, and one empty row to add a rule without JavaScript", () => {
    const defaults = gateValues({
      combine: "all",
      rules: [
        { kind: "level", min: 5, max: null },
        { kind: "holds_token", chainId: 31337, token: null, minBalance: "1500000000000000000", symbol: "", decimals: 18 },
      ],
    });
    const html = renderToStaticMarkup(<GateFields defaults={defaults} errors={{ "gate.rules.0.min": "Too high" }} networks={NETWORKS} what="campaign" />);
    expect(html).toContain('name="gate.combine"');
    expect(html).toMatch(/name="gate.rules.0.min"[^>]*value="5"/);
    expect(html).toContain("Too high");
    expect(html).toMatch(/name="gate.rules.1.amount"[^>]*value="1.5"/);
    expect(html).toContain('name="gate.rules.2.kind"');
    expect(html).not.toContain('name="gate.rules.3.kind"');
    // Without JavaScript the rules stay in view even for "Anyone".
    expect(renderToStaticMarkup(<GateFields defaults={gateValues(null)} errors={{}} networks={NETWORKS} what="campaign" />)).not.toMatch(/<ol[^>]*hidden/);
  });
});

describe("what you still need", () => {
  it("marks each rule for a member, a none gate's met rule as the problem, and shows visitors the rules only", () => {
    const member = renderToStaticMarkup(
      <GatePanel
        what="campaign"
        gate={{
          combine: "none",
          passes: false,
          rules: [
            { words: "Link an X account", state: "met" },
            { words: "Reach level 5 — you are level 3", state: "unmet" },
          ],
        }}
      />,
    );
    expect(member).toContain("What you still need. None of these:");
    expect(member.indexOf("Not met:")).toBeLessThan(member.indexOf("Link an X account"));
    expect(member.indexOf("Met:")).toBeGreaterThan(member.indexOf("Link an X account"));
    const visitor = renderToStaticMarkup(
      <GatePanel what="campaign" gate={{ combine: "all", passes: null, rules: [{ words: "Link an X account", state: null }] }} />,
    );
    expect(visitor).toContain("Every one of these:");
    expect(visitor).not.toContain("Met:");
  });
});
