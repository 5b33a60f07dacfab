import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import { campaignSchema } from "~/modules/tasks/quests.schema";
import { projectSchema } from "./project.schema";

const projectForm = (fields: Record<string, string>) => {
  const formData = new FormData();
  for (const [name, value] of Object.entries({
    name: "Acme",
    slug: "acme",
    description: "",
    categoryId: "",
    website: "",
    xUrl: "",
    discordUrl: "",
    telegramUrl: "",
    ...fields,
  })) {
    formData.set(name, value);
  }
  return parseForm(projectSchema, formData);
};

describe("projectSchema", () => {
  it("refuses an address a page of its own takes (/projects/new), whatever its case", () => {
    for (const slug of ["new", "NEW", " new "]) {
      expect(projectForm({ slug })).toMatchObject({ ok: false, errors: { slug: "That address belongs to a page of its own: choose another" } });
    }
    expect(projectForm({ slug: "newsroom" }).ok).toBe(true);
  });

  it("answers a social link that is no link at all with the field's message, not an error", () => {
    for (const [field, message, elsewhere] of [
      ["xUrl", "Enter a link to x.com", "https://x.com.evil.example/acme"],
      ["discordUrl", "Enter a discord.gg or discord.com link", "https://discord.gg.evil.example/acme"],
      ["telegramUrl", "Enter a t.me link", "https://evil.example/t.me"],
      ["website", "Enter a full https:// link", null],
    ] as const) {
      for (const value of ["not a url", "http://x.com/acme", "javascript:alert(1)", ...(elsewhere ? [elsewhere] : [])]) {
        expect(projectForm({ [field]: value }), `${field}: ${value}`).toMatchObject({ ok: false, errors: { [field]: message } });
      }
    }
    expect(
      projectForm({ xUrl: "https://x.com/acme", discordUrl: "https://discord.gg/acme", telegramUrl: "https://t.me/acme", website: "https://acme.example" }),
    ).toMatchObject({
      ok: true,
      data: { xUrl: "https://x.com/acme", discordUrl: "https://discord.gg/acme", telegramUrl: "https://t.me/acme" },
    });
  });
});

describe("a quest's address", () => {
  it("refuses new (…/campaigns/new is the form's page)", () => {
    const result = campaignSchema.safeParse({
      name: "New",
      slug: "new",
      description: "",
      startsAt: "2026-12-01T10:00",
      endsAt: "2026-12-02T10:00",
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.find((issue) => issue.path[0] === "slug")?.message).toBe("That address belongs to a page of its own: choose another");
  });
});
