/**
 * What the Discord fake knows beyond OAuth: servers (guilds) and their roles, the bots that may
 * act in them, who is a member of which with which roles, the rate limits to answer next, and
 * every role grant and removal asked of it. Members are Discord user ids: a member who connected
 * through the fake's OAuth (or `issueToken`) reads their own membership with their token.
 */
import { PermissionFlagsBits } from "discord-api-types/v10";

export type DiscordRoleSpec = {
  id: string;
  name: string;
  /** Higher is more powerful; `@everyone` (id = the guild's) is 0. */
  position: number;
  /** A bit set as Discord writes it: a decimal string (or a bigint). */
  permissions: string | bigint;
};

export type DiscordGuildSpec = {
  id: string;
  name: string;
  /** The guild's roles; an `@everyone` role (id = the guild's, position 0, no permissions) is added unless given. */
  roles: DiscordRoleSpec[];
  /** The guild's owner (default a user id no test uses). */
  ownerId?: string;
};

export type DiscordBotSpec = { token: string; userId: string; username: string };

export type DiscordMemberSpec = {
  roles: string[];
  /** ISO 8601 (default: the fake's clock when set). */
  joinedAt?: string;
};

/** One PUT or DELETE of a member's role, as answered. */
export type DiscordRoleRequest = {
  method: "PUT" | "DELETE";
  guildId: string;
  userId: string;
  roleId: string;
  /** `X-Audit-Log-Reason`, decoded (null when none came). */
  reason: string | null;
  /** The bot's user id, when its token was known. */
  botUserId: string | null;
  status: number;
};

export type DiscordGuild = {
  id: string;
  name: string;
  ownerId: string;
  roles: Map<string, { id: string; name: string; position: number; permissions: bigint }>;
};
export type DiscordMember = { roles: string[]; joinedAt: string };

/** Permission bits the fake reads. */
export const ADMINISTRATOR = PermissionFlagsBits.Administrator;
export const MANAGE_ROLES = PermissionFlagsBits.ManageRoles;

const DEFAULT_OWNER = "100000000000000001";

export class DiscordState {
  readonly guilds = new Map<string, DiscordGuild>();
  /** By token. */
  readonly bots = new Map<string, DiscordBotSpec>();
  /** Guild id → user id → membership (bots that joined included). */
  readonly members = new Map<string, Map<string, DiscordMember>>();
  /** The next requests to answer 429, each with its `retry_after`. */
  readonly rateLimits: number[] = [];
  readonly roleRequests: DiscordRoleRequest[] = [];

  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  reset() {
    this.guilds.clear();
    this.bots.clear();
    this.members.clear();
    this.rateLimits.length = 0;
    this.roleRequests.length = 0;
  }

  addGuild({ id, name, roles, ownerId = DEFAULT_OWNER }: DiscordGuildSpec) {
    const all = new Map(roles.map((r) => [r.id, { ...r, permissions: BigInt(r.permissions) }]));
    if (!all.has(id)) all.set(id, { id, name: "@everyone", position: 0, permissions: 0n });
    this.guilds.set(id, { id, name, ownerId, roles: all });
    if (!this.members.has(id)) this.members.set(id, new Map());
  }

  addBot(bot: DiscordBotSpec) {
    this.bots.set(bot.token, bot);
  }

  botByUserId(userId: string) {
    return [...this.bots.values()].find((b) => b.userId === userId) ?? null;
  }

  joinBot(guildId: string, botUserId: string, roleIds: string[]) {
    this.setMember(guildId, botUserId, { roles: roleIds });
  }

  setMember(guildId: string, userId: string, { roles, joinedAt }: DiscordMemberSpec) {
    const members = this.members.get(guildId) ?? new Map<string, DiscordMember>();
    this.members.set(guildId, members);
    const before = members.get(userId);
    members.set(userId, { roles: [...roles], joinedAt: joinedAt ?? before?.joinedAt ?? new Date(this.now()).toISOString() });
  }

  removeMember(guildId: string, userId: string) {
    this.members.get(guildId)?.delete(userId);
  }

  member(guildId: string, userId: string): DiscordMember | null {
    return this.members.get(guildId)?.get(userId) ?? null;
  }

  memberRoles(guildId: string, userId: string): string[] | null {
    const found = this.member(guildId, userId);
    return found ? [...found.roles] : null;
  }

  rateLimitNext(count: number, retryAfterSeconds: number) {
    for (let i = 0; i < count; i++) this.rateLimits.push(retryAfterSeconds);
  }

  /** What a member's roles allow in a guild: `@everyone`'s bits and every role's, all of them for an administrator or the owner. */
  permissionsOf(guild: DiscordGuild, userId: string): bigint {
    if (guild.ownerId === userId) return ~0n & 0xffffffffffffn;
    const member = this.member(guild.id, userId);
    let bits = guild.roles.get(guild.id)?.permissions ?? 0n;
    for (const id of member?.roles ?? []) bits |= guild.roles.get(id)?.permissions ?? 0n;
    return (bits & ADMINISTRATOR) === ADMINISTRATOR ? ~0n & 0xffffffffffffn : bits;
  }

  /** The position of a member's highest role (0: only `@everyone`). */
  highestPosition(guild: DiscordGuild, userId: string): number {
    const member = this.member(guild.id, userId);
    return Math.max(0, ...(member?.roles ?? []).map((id) => guild.roles.get(id)?.position ?? 0));
  }
}
