import { z } from "zod";
import { parseYoutubeChannelInput } from "~/modules/tasks/social-targets";
import { providerRequest } from "./http.server";
import { providerDate, type CheckOutcome, type ProfileOutcome, type ProviderCall } from "./outcome";

/** What a member did on YouTube, read through the YouTube Data API v3 with their Google token. */

const SCOPE = "https://www.googleapis.com/auth/youtube.readonly";

const thumbnail = z.object({ url: z.string() }).loose();
const channels = z.object({
  items: z
    .array(
      z.object({
        id: z.string(),
        snippet: z
          .object({
            title: z.string(),
            customUrl: z.string().optional(),
            thumbnails: z.object({ default: thumbnail.optional(), medium: thumbnail.optional(), high: thumbnail.optional() }).loose().optional(),
            publishedAt: z.string().optional().catch(undefined),
          })
          .loose(),
        // The subscriber count comes as a string of digits; a channel may hide it. Never a reason to refuse the channel.
        statistics: z
          .object({ subscriberCount: z.string().regex(/^\d+$/).optional(), hiddenSubscriberCount: z.boolean().optional() })
          .loose()
          .optional()
          .catch(undefined),
      }),
    )
    .optional(),
});
const subscriptions = z.object({
  items: z
    .array(
      z.object({
        id: z.string(),
        snippet: z.object({ publishedAt: z.string().optional(), resourceId: z.object({ channelId: z.string() }).loose() }).loose(),
      }),
    )
    .optional(),
});

/** A channel's `UC…` id, or its `youtube.com/channel/UC…` link → the id; null otherwise. */
export const parseYoutubeChannel = (input: string): string | null => parseYoutubeChannelInput(input);

/** The connecting account's channel (`GET channels?part=snippet,statistics&mine=true`); an account without one is `no_channel`. */
export async function fetchYoutubeProfile(call: ProviderCall): Promise<ProfileOutcome> {
  const answer = await providerRequest(call, { path: "/channels", query: { part: "snippet,statistics", mine: "true" }, schema: channels, scope: SCOPE });
  if (answer.kind !== "ok") return answer;
  const channel = answer.data.items?.[0];
  if (!channel) return { kind: "no_channel" };
  const { title, customUrl, thumbnails, publishedAt } = channel.snippet;
  const accountCreatedAt = providerDate(publishedAt);
  const { subscriberCount, hiddenSubscriberCount } = channel.statistics ?? {};
  const followers = subscriberCount !== undefined && !hiddenSubscriberCount ? Number(subscriberCount) : undefined;
  return {
    kind: "profile",
    profile: {
      id: channel.id,
      handle: customUrl?.replace(/^@/, "") ?? channel.id,
      displayName: title,
      avatarUrl: (thumbnails?.default ?? thumbnails?.medium ?? thumbnails?.high)?.url ?? null,
      ...(accountCreatedAt ? { accountCreatedAt } : {}),
      ...(followers !== undefined ? { followers } : {}),
    },
  };
}

/** Whether the member subscribes to the channel (`GET subscriptions?mine=true&forChannelId=…`). */
export async function checkYoutubeSubscription(call: ProviderCall, { channelId }: { channelId: string }): Promise<CheckOutcome> {
  const answer = await providerRequest(call, {
    path: "/subscriptions",
    query: { part: "snippet", mine: "true", forChannelId: channelId, maxResults: 1 },
    schema: subscriptions,
    scope: SCOPE,
  });
  if (answer.kind !== "ok") return answer;
  const subscription = answer.data.items?.find((s) => s.snippet.resourceId.channelId === channelId);
  if (!subscription) return { kind: "not_found" };
  const at = subscription.snippet.publishedAt;
  return { kind: "found", evidence: { id: subscription.id, ...(at ? { at } : {}), url: `https://www.youtube.com/channel/${channelId}` } };
}
