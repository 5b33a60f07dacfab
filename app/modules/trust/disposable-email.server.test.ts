import { describe, expect, it } from "vitest";
import { WALLET_EMAIL_DOMAIN } from "~/modules/wallets/wallets.server";
import { disposableDomainOf } from "./disposable-email.server";

describe("disposableDomainOf", () => {
  it("names the listed domain of a throwaway address, its subdomains included, in any case", () => {
    expect(disposableDomainOf("bot1@mailinator.com")).toBe("mailinator.com");
    expect(disposableDomainOf("Bot2@YopMail.com")).toBe("yopmail.com");
    expect(disposableDomainOf("bot3@eu.inbox.guerrillamail.com")).toBe("guerrillamail.com");
    expect(disposableDomainOf("bot4@mailinator.com.")).toBe("mailinator.com");
  });

  it("gives null for ordinary providers, our wallet members' placeholder domain, look-alikes and non-addresses", () => {
    for (const email of [
      "ada@gmail.com",
      "ada@example.com",
      `0xabc@${WALLET_EMAIL_DOMAIN}`,
      "ada@fakemailinator.org",
      "ada@mailinator.com.example.org",
      "mailinator.com",
      "ada@",
      "ada@com",
      "ada@mailinator..com",
    ]) {
      expect(disposableDomainOf(email), email).toBeNull();
    }
  });
});
