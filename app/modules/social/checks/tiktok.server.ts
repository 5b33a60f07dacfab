import { z } from "zod";
import { providerRequest } from "./http.server";
import { mentionsPhrase } from "./match-phrase";
import type { CheckOutcome, ProfileOutcome, ProviderCall } from "./outcome";

/** What a member posted on TikTok, read through TikTok's v2 API with their token. */

/** TikTok wraps every answer: `{ data, error: { code: "ok" } }`; other codes are read by `providerRequest`. */
const envelope = <T extends z.ZodType>(data: T) => z.object({ data, error: z.object({ code: z.literal("ok") }).loose() });

const userInfo = envelope(
  z.object({
    user: z.object({ open_id: z.string(), username: z.string().optional(), display_name: z.string().optional(), avatar_url: z.string().optional() }).loose(),
  }),
);
const videoList = envelope(
  z.object({
    videos: z
      .array(
        z.object({ id: z.string(), video_description: z.string().optional(), create_time: z.number().optional(), share_url: z.string().optional() }).loose(),
      )
      .optional(),
  }),
);

/** The most videos one page holds (TikTok's maximum). */
const VIDEOS_PAGE = 20;

/** The connecting account's profile (`GET /v2/user/info/`). */
export async function fetchTiktokProfile(call: ProviderCall): Promise<ProfileOutcome> {
  const answer = await providerRequest(call, {
    path: "/v2/user/info/",
    query: { fields: "open_id,avatar_url,display_name,username" },
    schema: userInfo,
    // user.info.basic comes with every TikTok login; the username needs user.info.profile.
    scope: "user.info.profile",
  });
  if (answer.kind !== "ok") return answer;
  const { open_id, username, display_name, avatar_url } = answer.data.data.user;
  return { kind: "profile", profile: { id: open_id, handle: username ?? "", displayName: display_name ?? username ?? "", avatarUrl: avatar_url || null } };
}

/** Whether one of the member's most recent videos says the phrase in its description (one page). */
export async function checkTiktokPost(call: ProviderCall, { phrase }: { phrase: string }): Promise<CheckOutcome> {
  const answer = await providerRequest(call, {
    path: "/v2/video/list/",
    method: "POST",
    query: { fields: "id,video_description,create_time,share_url" },
    json: { max_count: VIDEOS_PAGE },
    schema: videoList,
    scope: "video.list",
  });
  if (answer.kind !== "ok") return answer;
  const video = answer.data.data.videos?.find((v) => mentionsPhrase({ text: v.video_description ?? "", phrase }));
  if (!video) return { kind: "not_found" };
  return {
    kind: "found",
    evidence: {
      id: video.id,
      ...(video.create_time !== undefined ? { at: new Date(video.create_time * 1000).toISOString() } : {}),
      ...(video.share_url ? { url: video.share_url } : {}),
    },
  };
}
