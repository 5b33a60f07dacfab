/** What the Team & invites actions answer; each row's fetcher reads its own. */
export type TeamActionData = {
  intent: string;
  /** The invite or member the action was about. */
  id?: string;
  ok: boolean;
  /** Field errors; `form` is the whole action's (a row's fetcher shows it). */
  errors?: Record<string, string>;
  values?: { target: string; role: string };
  /** Who an invite went to. */
  to?: string;
  /** Whether the invite was e-mailed: null for wallet invites. */
  mailed?: boolean | null;
  /** The invite link, when it was not e-mailed (wallet invites, or the mail failed). */
  url?: string | null;
};
