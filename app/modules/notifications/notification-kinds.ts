/**
 * What a member can be told about, each kind with its words and whether it is on by default in
 * each channel: the in-app inbox and e-mail. A member's own choice (notification_preference) wins
 * over the default; no row means the default. Browser-safe: the settings page draws its table from it.
 */

export const NOTIFICATION_CHANNELS = ["inbox", "email"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

type KindSpec = {
  label: string;
  /** What it says, for the settings table. */
  about: string;
  defaults: Record<NotificationChannel, boolean>;
  /** Only members of a project's team get it. */
  team?: true;
};

export const NOTIFICATION_KINDS = {
  review: {
    label: "Review decided",
    about: "A project's team approved or rejected a task you sent (with their reason).",
    defaults: { inbox: true, email: true },
  },
  reward: {
    label: "Reward won and paid",
    about: "A campaign's reward pool paid you XP or tokens.",
    defaults: { inbox: true, email: true },
  },
  raffle: {
    label: "Raffle drawn",
    about: "A raffle you entered was drawn, whether you won or not.",
    defaults: { inbox: true, email: false },
  },
  airdrop_claimable: {
    label: "Airdrop ready to claim",
    about: "Your share of an airdrop can be claimed on chain.",
    defaults: { inbox: true, email: true },
  },
  airdrop_closing: {
    label: "Airdrop claims closing",
    about: "Claims of an airdrop you have not claimed yet close within 24 hours.",
    defaults: { inbox: true, email: true },
  },
  deposit: {
    label: "Deposit credited",
    about: "A deposit from your wallet reached your balance.",
    defaults: { inbox: true, email: false },
  },
  withdrawal: {
    label: "Withdrawal confirmed or failed",
    about: "A withdrawal reached your wallet, or failed and can be retried.",
    defaults: { inbox: true, email: true },
  },
  invitation: {
    label: "Invitation received",
    about: "A project invited you to its team (the invitation itself always comes by e-mail).",
    defaults: { inbox: true, email: false },
  },
  campaign: {
    label: "New campaign from a project you follow",
    about: "A project you follow published a campaign.",
    defaults: { inbox: true, email: false },
  },
  webhook: {
    label: "Webhook endpoint turned off",
    about: "One of your project's webhook endpoints failed for too long and was turned off (owners and admins).",
    defaults: { inbox: true, email: true },
    team: true,
  },
} as const satisfies Record<string, KindSpec>;

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;
export const NOTIFICATION_KIND_NAMES = Object.keys(NOTIFICATION_KINDS) as NotificationKind[];
export const isNotificationKind = (value: string): value is NotificationKind => value in NOTIFICATION_KINDS;

/** One kind's effective choice in both channels. */
export type KindPreference = { kind: NotificationKind; inbox: boolean; email: boolean };

/** The settings form's field for a kind and channel: `email:review`. */
export const preferenceField = (channel: NotificationChannel, kind: NotificationKind) => `${channel}:${kind}`;
