import { describe, expect, it } from "vitest";
import { dataPageMeta, pageTitle, publicMeta } from "./meta";

const root = { loaderData: { appName: "Questline", appUrl: "https://quests.example" } };
const at = (pathname: string) => ({ matches: [root], location: { pathname } });

describe("a public page's head", () => {
  it("names the page, describes it in at most 160 characters and gives its canonical address and preview tags", () => {
    const tags = publicMeta(at("/leaderboard"), { page: "Leaderboard", description: "x".repeat(200), image: "https://quests.example/logo.png" });
    expect(tags).toContainEqual({ title: "Leaderboard - Questline" });
    const description = tags.find((t) => "name" in t && t.name === "description") as { content: string };
    expect(description.content).toHaveLength(160);
    expect(description.content.endsWith("…")).toBe(true);
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://quests.example/leaderboard" });
    expect(tags).toContainEqual({ property: "og:url", content: "https://quests.example/leaderboard" });
    expect(tags).toContainEqual({ property: "og:image", content: "https://quests.example/logo.png" });
    expect(pageTitle("Questline")).toBe("Questline");
  });

  it("is described by the loader's data, and is the title alone when there is none (an error page)", () => {
    const describe = (data: { name: string }, appName: string) => ({ page: data.name, description: `${data.name} on ${appName}` });
    expect(dataPageMeta({ ...at("/c/s4"), loaderData: { name: "Season 4" } }, "Campaign", describe)).toContainEqual({
      name: "description",
      content: "Season 4 on Questline",
    });
    expect(dataPageMeta({ ...at("/c/gone"), loaderData: undefined }, "Campaign", describe)).toEqual([{ title: "Campaign - Questline" }]);
  });
});
