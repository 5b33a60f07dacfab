/**
 * What a project's API key may do: each operation of /api/v1 names the one scope it needs. A
 * client-safe module (the keys page shows the words).
 */
export const API_SCOPES = ["read", "xp:write", "tasks:write", "completions:write"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_SCOPE_WORDS: Record<ApiScope, string> = {
  read: "Read the project, its campaigns, crusades, tasks, airdrops, completions, leaderboards and members",
  "xp:write": "Grant and revoke XP",
  "tasks:write": "Create and change tasks",
  "completions:write": "Record completions of tasks your server confirms",
};

export const isApiScope = (value: string): value is ApiScope => (API_SCOPES as readonly string[]).includes(value);
