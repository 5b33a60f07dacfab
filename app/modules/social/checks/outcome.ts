import type { SocialProvider } from "../providers";

/**
 * What a provider's API said about something a member did. Only `found` and `not_found` are about
 * the member; every other outcome is the provider's (or our configuration's) and never counts
 * against them: the page says what to do next and nothing changes.
 */
export type CheckOutcome =
  /** Found: the post, like, follow or subscription's id and, when the API gives it, its time. */
  | { kind: "found"; evidence: Evidence }
  | { kind: "not_found" }
  /** The token was refused (401, revoked, expired beyond refresh): the member must connect again. */
  | { kind: "needs_reconnect" }
  /** The token lacks a scope the check needs (403 naming scopes). */
  | { kind: "missing_scope"; scope: string }
  /** The provider's rate limit: try again after `retryAt` (from its reset headers). */
  | { kind: "rate_limited"; retryAt: Date }
  /** The provider could not be reached or answered 5xx. */
  | { kind: "unavailable" }
  /** The provider answered something we do not understand (logged with `detail`). */
  | { kind: "malformed"; detail: string };

/** `label`: what was found in words, where an id means nothing to the member ("the Holder role in Lumen"). */
export type Evidence = { id: string; at?: string; url?: string; label?: string };

/** Every outcome that is the provider's (or our configuration's) doing rather than the member's. */
export type ProviderFailure = Exclude<CheckOutcome, { kind: "found" } | { kind: "not_found" }>;

/** Where a provider's REST API lives, and the token to call it with. */
export type ProviderCall = {
  provider: SocialProvider;
  /** The API base from configuration, e.g. https://api.x.com for X (no trailing slash). */
  apiUrl: string;
  accessToken: string;
  /** Injected for tests of timeouts; defaults to the global fetch. */
  fetch?: typeof fetch;
  now?: Date;
};

/** The public profile read when an account connects. */
export type SocialProfile = {
  id: string;
  handle: string;
  displayName: string;
  avatarUrl: string | null;
  /** Instagram only: BUSINESS, MEDIA_CREATOR or PERSONAL. */
  accountType?: string;
  /** When the provider says the account was created (X, YouTube): a trust signal. */
  accountCreatedAt?: Date;
  /** Its followers or subscribers, where the provider gives them (X, YouTube, Instagram): a trust signal. */
  followers?: number;
};

/** A provider's date, or nothing when it sent none or one we cannot read: never a reason to refuse the profile. */
export function providerDate(value: string | undefined): Date | undefined {
  const date = value ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

/** What reading the connecting account's profile gave. */
export type ProfileOutcome =
  | { kind: "profile"; profile: SocialProfile }
  /** An Instagram personal account: Instagram's API serves professional (Business, Creator) accounts only. */
  | { kind: "personal_account"; profile: SocialProfile }
  /** A Google account without a YouTube channel: it has no subscriptions to check. */
  | { kind: "no_channel" }
  | ProviderFailure;
