import { z } from "zod";
import { providerRequest, type ProviderAnswer } from "./http.server";
import { mentionsPhrase } from "./match-phrase";
import type { CheckOutcome, ProfileOutcome, ProviderCall, ProviderFailure } from "./outcome";

/**
 * What a member posted on Instagram, read through the Instagram API with Instagram Login (Meta's
 * Graph API at graph.instagram.com). It serves professional accounts (Business, Creator) only.
 */

const SCOPE = "instagram_business_basic";

const me = z.object({
  id: z.string(),
  user_id: z.union([z.string(), z.number()]).optional(),
  username: z.string(),
  name: z.string().optional(),
  profile_picture_url: z.string().optional(),
  account_type: z.string().optional(),
  followers_count: z.number().int().nonnegative().optional().catch(undefined),
});
const media = z.object({
  data: z.array(z.object({ id: z.string(), caption: z.string().optional(), timestamp: z.string().optional(), permalink: z.string().optional() }).loose()),
});
const longLivedToken = z.object({ access_token: z.string().min(1), token_type: z.string().optional(), expires_in: z.number() });

/** The most recent media one check reads. */
const MEDIA_PAGE = 25;

/** The connecting account's profile (`GET /me`); a personal account comes back as `personal_account`. */
export async function fetchInstagramProfile(call: ProviderCall): Promise<ProfileOutcome> {
  const answer = await providerRequest(call, {
    path: "/me",
    query: { fields: "user_id,username,name,profile_picture_url,account_type,followers_count" },
    schema: me,
    scope: SCOPE,
  });
  if (answer.kind !== "ok") return answer;
  const { id, user_id, username, name, profile_picture_url, account_type, followers_count } = answer.data;
  const accountType = account_type?.toUpperCase();
  const profile = {
    // `user_id` is the professional account's id, the same whichever app asks; `id` is this app's.
    id: String(user_id ?? id),
    handle: username,
    displayName: name || username,
    avatarUrl: profile_picture_url ?? null,
    ...(accountType ? { accountType } : {}),
    ...(followers_count !== undefined ? { followers: followers_count } : {}),
  };
  return accountType === "PERSONAL" ? { kind: "personal_account", profile } : { kind: "profile", profile };
}

/** Whether one of the member's most recent posts says the phrase in its caption (one page). */
export async function checkInstagramPost(call: ProviderCall, { phrase }: { phrase: string }): Promise<CheckOutcome> {
  const answer = await providerRequest(call, {
    path: "/me/media",
    query: { fields: "id,caption,timestamp,permalink", limit: MEDIA_PAGE },
    schema: media,
    scope: SCOPE,
  });
  if (answer.kind !== "ok") return answer;
  const post = answer.data.data.find((m) => mentionsPhrase({ text: m.caption ?? "", phrase }));
  if (!post) return { kind: "not_found" };
  const at = post.timestamp ? isoTime(post.timestamp) : undefined;
  return { kind: "found", evidence: { id: post.id, ...(at ? { at } : {}), ...(post.permalink ? { url: post.permalink } : {}) } };
}

/** Graph's `2024-05-01T10:00:00+0000` as ISO 8601 UTC; as given when it is not a time. */
const isoTime = (value: string) => {
  const time = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isFinite(time) ? new Date(time).toISOString() : value;
};

export type InstagramToken = { kind: "token"; accessToken: string; expiresAt: Date };

type TokenCall = Pick<ProviderCall, "fetch" | "now"> & { apiUrl: string };

/** Swaps the one-hour token of Instagram's login for a 60-day one (`GET /access_token?grant_type=ig_exchange_token`). */
export async function exchangeInstagramToken({
  apiUrl,
  clientSecret,
  shortLivedToken,
  ...call
}: TokenCall & { clientSecret: string; shortLivedToken: string }): Promise<InstagramToken | ProviderFailure> {
  const answer = await providerRequest(
    { provider: "instagram", apiUrl, accessToken: shortLivedToken, ...call },
    {
      path: "/access_token",
      query: { grant_type: "ig_exchange_token", client_secret: clientSecret, access_token: shortLivedToken },
      schema: longLivedToken,
      scope: SCOPE,
      auth: "none",
    },
  );
  return asToken(answer, call.now);
}

/** A fresh 60-day token for a long-lived one at least a day old and not expired (`GET /refresh_access_token`). */
export async function refreshInstagramToken({ apiUrl, accessToken, ...call }: TokenCall & { accessToken: string }): Promise<InstagramToken | ProviderFailure> {
  const answer = await providerRequest(
    { provider: "instagram", apiUrl, accessToken, ...call },
    {
      path: "/refresh_access_token",
      query: { grant_type: "ig_refresh_token", access_token: accessToken },
      schema: longLivedToken,
      scope: SCOPE,
      auth: "none",
    },
  );
  return asToken(answer, call.now);
}

function asToken(answer: ProviderAnswer<z.output<typeof longLivedToken>>, now = new Date()): InstagramToken | ProviderFailure {
  if (answer.kind !== "ok") return answer;
  return { kind: "token", accessToken: answer.data.access_token, expiresAt: new Date(now.getTime() + answer.data.expires_in * 1000) };
}
