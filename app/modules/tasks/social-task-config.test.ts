import { describe, expect, it } from "vitest";
import type { Task } from "./completions.server";
import { parseInstagramHandleInput, parseTiktokHandleInput, parseXHandleInput, parseXPostInput, parseYoutubeChannelInput } from "./social-targets";
import { howChecked } from "./task-checks";
import { readTaskForm, taskFormValues } from "./task-form.server";
import { taskConfigSchemas } from "./task.schema";

const CHANNEL = "UC_x5XG1OV2P6uZZ5FSM9Ttw";

const form = (fields: Record<string, string>) => {
  const fd = new FormData();
  const base = { title: "Social task", description: "", xp: "20", verification: "auto", recurrence: "once", startsAt: "", endsAt: "", cap: "", campaignId: "" };
  for (const [k, v] of Object.entries({ ...base, ...fields })) fd.set(k, v);
  return fd;
};
const read = (fields: Record<string, string>) => readTaskForm(form(fields), { chainIds: [] });

describe("what a social task points at", () => {
  it("reads an X account as @name, name or a profile link", () => {
    for (const input of [
      "@questline",
      "questline",
      " https://x.com/questline ",
      "x.com/questline/",
      "https://twitter.com/questline?lang=en",
      "www.x.com/questline",
    ]) {
      expect(parseXHandleInput(input), input).toBe("questline");
    }
    for (const input of ["", "@", "a-b", "sixteen_chars_xx", "https://example.com/questline", "https://x.com/", "https://x.com/home", "javascript:alert(1)"]) {
      expect(parseXHandleInput(input), input).toBeNull();
    }
  });

  it("reads an X post's link from x.com or twitter.com into its canonical link and id", () => {
    expect(parseXPostInput("https://twitter.com/Questline/status/1234567890123456789?s=20")).toEqual({
      id: "1234567890123456789",
      url: "https://x.com/Questline/status/1234567890123456789",
    });
    expect(parseXPostInput("x.com/i/web/status/42")).toEqual({ id: "42", url: "https://x.com/i/status/42" });
    expect(parseXPostInput("https://x.com/questline/status/123/photo/1")?.id).toBe("123");
    for (const input of ["https://x.com/questline", "https://x.com/questline/status/abc", "https://example.com/a/status/1", "1234"]) {
      expect(parseXPostInput(input), input).toBeNull();
    }
  });

  it("reads a YouTube channel by its UC… id or channel link, and refuses a @handle (its id needs the API)", () => {
    expect(parseYoutubeChannelInput(CHANNEL)).toBe(CHANNEL);
    expect(parseYoutubeChannelInput(`https://www.youtube.com/channel/${CHANNEL}/videos`)).toBe(CHANNEL);
    expect(parseYoutubeChannelInput(`youtube.com/channel/${CHANNEL}`)).toBe(CHANNEL);
    expect(parseYoutubeChannelInput("https://www.youtube.com/@questline")).toBeNull();
    expect(parseYoutubeChannelInput("UCshort")).toBeNull();
  });

  it("reads TikTok and Instagram handles, dots included, never mistaking one for a site", () => {
    expect(parseTiktokHandleInput("@jane.doe")).toBe("jane.doe");
    expect(parseTiktokHandleInput("https://www.tiktok.com/@jane.doe?lang=en")).toBe("jane.doe");
    expect(parseTiktokHandleInput("https://www.instagram.com/jane.doe")).toBeNull();
    expect(parseInstagramHandleInput("jane.doe")).toBe("jane.doe");
    expect(parseInstagramHandleInput("instagram.com/jane_doe/")).toBe("jane_doe");
    expect(parseInstagramHandleInput("https://evil.example/jane")).toBeNull();
  });
});

describe("the task form's social types", () => {
  it("normalizes an X follow's account and reads its two switches (re-check on by default in stored configs)", () => {
    const follow = read({ type: "x_follow", "config.handle": "https://x.com/questline", "config.allowProof": "on", "config.recheckBeforeRewards": "on" });
    expect(follow.ok && follow.input.config).toEqual({ handle: "questline", allowProof: true, recheckBeforeRewards: true });
    const unchecked = read({ type: "x_follow", "config.handle": "@questline" });
    expect(unchecked.ok && unchecked.input.config).toEqual({ handle: "questline", allowProof: false, recheckBeforeRewards: false });
    expect(taskConfigSchemas.x_follow.parse({ handle: "questline" })).toEqual({ handle: "questline", allowProof: false, recheckBeforeRewards: true });
  });

  it("stores a YouTube channel's id and the name members look for", () => {
    const subscribe = read({
      type: "youtube_subscribe",
      "config.channelId": `https://www.youtube.com/channel/${CHANNEL}`,
      "config.channelName": " Questline ",
    });
    expect(subscribe.ok && subscribe.input.config).toEqual({ channelId: CHANNEL, channelName: "Questline", recheckBeforeRewards: false });
  });

  it("stores a post's canonical link with its id", () => {
    const like = read({ type: "x_like", "config.postUrl": "twitter.com/questline/status/99" });
    expect(like.ok && like.input.config).toEqual({ postUrl: "https://x.com/questline/status/99", postId: "99" });
    expect(taskConfigSchemas.x_repost.parse({ postUrl: "https://x.com/i/status/7" })).toEqual({ postUrl: "https://x.com/i/status/7", postId: "7" });
  });

  it("refuses what it cannot read, field by field, keeping what was typed", () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ type: "x_follow", "config.handle": "not a handle" }, "config.handle", /X account/],
      [{ type: "x_like", "config.postUrl": "https://x.com/questline" }, "config.postUrl", /post's link/],
      [{ type: "x_post", "config.phrase": "" }, "config.phrase", /phrase/],
      [{ type: "youtube_subscribe", "config.channelId": "https://www.youtube.com/@questline" }, "config.channelId", /UC…/],
      [{ type: "youtube_subscribe", "config.channelId": CHANNEL, "config.channelName": "" }, "config.channelName", /channel's name/],
      [{ type: "tiktok_follow", verification: "review", "config.handle": "https://x.com/questline" }, "config.handle", /TikTok account/],
      [{ type: "instagram_post", "config.phrase": "x".repeat(201) }, "config.phrase", /under 200/],
    ];
    for (const [fields, field, message] of cases) {
      const result = read(fields);
      expect(result.ok, fields.type).toBe(false);
      if (result.ok) continue;
      expect(result.errors[field], fields.type).toMatch(message);
      expect(result.values[field]).toBe(fields[field]);
    }
  });

  it("allows only the review for TikTok and Instagram follows, and only the API check for the others", () => {
    const auto = read({ type: "instagram_follow", "config.handle": "questline" });
    expect(!auto.ok && auto.errors.verification).toMatch(/review/);
    expect(read({ type: "tiktok_follow", verification: "review", "config.handle": "@questline" }).ok).toBe(true);
    const reviewed = read({ type: "tiktok_post", verification: "review", "config.phrase": "#questline" });
    expect(!reviewed.ok && reviewed.errors.verification).toMatch(/auto/);
  });

  it("shows a saved follow's switches as they were saved", () => {
    const values = taskFormValues({
      type: "youtube_subscribe",
      config: { channelId: CHANNEL, channelName: "Questline", recheckBeforeRewards: false },
      startsAt: null,
      endsAt: null,
      cap: null,
      publishedAt: null,
    } as unknown as Task);
    expect(values).toMatchObject({ "config.channelId": CHANNEL, "config.channelName": "Questline", "config.recheckBeforeRewards": "" });
    const follow = taskFormValues({ type: "x_follow", config: { handle: "q" }, startsAt: null, endsAt: null, cap: null, publishedAt: null } as unknown as Task);
    expect(follow).toMatchObject({ "config.handle": "q", "config.allowProof": "", "config.recheckBeforeRewards": "on" });
  });
});

describe("how a task is checked, in words", () => {
  it("names the provider for API checks, the team for reviews, Questline for its own checks, and what completes the others", () => {
    expect(howChecked({ type: "x_follow", verification: "auto" })).toBe("Checked with X");
    expect(howChecked({ type: "youtube_subscribe", verification: "auto" })).toBe("Checked with YouTube");
    expect(howChecked({ type: "tiktok_post", verification: "auto" })).toBe("Checked with TikTok");
    expect(howChecked({ type: "instagram_follow", verification: "review" })).toBe("Reviewed by the team");
    expect(howChecked({ type: "quiz", verification: "auto" })).toBe("Checked by Questline");
    expect(howChecked({ type: "hold_token", verification: "auto" })).toBe("Checked by Questline");
    // Never "Not checked" beside "Done": a visit is done by opening the link, an unreviewed answer when sent.
    expect(howChecked({ type: "visit_link", verification: "none" })).toBe("Done by opening the link");
    expect(howChecked({ type: "submit_text", verification: "none" })).toBe("Done when sent");
  });
});
