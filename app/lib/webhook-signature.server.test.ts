import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signedHeaders, verifySignedHeaders } from "./webhook-signature.server";

describe("Standard Webhooks signatures", () => {
  const body = JSON.stringify({ type: "completion.approved", data: { id: "c1" } });
  const now = 1_790_000_000;

  it("are accepted by the standardwebhooks package's own verify, under each secret of a rotation", () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signedHeaders({ secrets: [current, previous], id: "msg_1", timestamp: now, body });
    for (const secret of [current, previous]) {
      const verifier = new Webhook(secret);
      // The package checks the timestamp against its own clock: give it ours.
      const realNow = Date.now;
      Date.now = () => now * 1000;
      try {
        expect(verifier.verify(body, headers)).toEqual(JSON.parse(body));
      } finally {
        Date.now = realNow;
      }
    }
  });

  it("are refused under another secret, for a changed body, or outside the tolerance", () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders({ secrets: [secret], id: "msg_2", timestamp: now, body });
    expect(verifySignedHeaders({ secret, headers, body, now })).toBe(true);
    expect(verifySignedHeaders({ secret: newWebhookSecret(), headers, body, now })).toBe(false);
    expect(verifySignedHeaders({ secret, headers, body: body + " ", now })).toBe(false);
    expect(verifySignedHeaders({ secret, headers, body, now: now + 301 })).toBe(false);
  });
});
