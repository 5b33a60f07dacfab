import { AlertTriangle, CheckCircle2, ScrollText, Shield } from "lucide-react";
import { useState } from "react";
import { Form } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { Pagination } from "~/components/pagination";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { TRIGGER_WORDS } from "~/modules/community/role-rewards.schema";
import { IntentButton, usePendingIntent } from "./webhooks-parts";

/** The pieces of Project › Discord: the bot, the rules, the form adding one, the log. */

const NOT_IN_SERVER = "The bot is not in the server";

type Bot = {
  guildId: string;
  guildName: string;
  botUsername: string;
  problems: string[];
  checkedAt: string | null;
  inviteUrl: string | null;
};

const when = (iso: string) => new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });

export function BotCard({ bot, errors = {}, guildId }: { bot: Bot | null; errors?: Record<string, string>; guildId?: string }) {
  const pending = usePendingIntent("save");
  const needsInvite = bot?.problems.some((p) => p.startsWith(NOT_IN_SERVER) || p.includes("Manage Roles"));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Bot</CardTitle>
        <CardDescription>
          {bot
            ? `Saved: ${bot.botUsername || "your bot"} in ${bot.guildName || `server ${bot.guildId}`}. The token is kept encrypted and never shown again.`
            : "Create a bot in Discord's Developer Portal, then paste its token and your server's id. The token is kept encrypted and never shown again."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {bot && (
          <div role="status" className="grid gap-2">
            {bot.problems.length === 0 ? (
              <p className="flex items-center gap-2 text-sm">
                <CheckCircle2 className="size-4 text-lime-600" aria-hidden /> The bot can grant and remove your reward roles.
              </p>
            ) : (
              <ul className="grid gap-2">
                {bot.problems.map((p) => (
                  <li key={p} className="flex items-start gap-2 text-sm text-destructive">
                    <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden /> {p}
                  </li>
                ))}
              </ul>
            )}
            {needsInvite && bot.inviteUrl && (
              <p className="text-sm">
                <a className="font-medium underline" href={bot.inviteUrl} target="_blank" rel="noreferrer">
                  Invite the bot to your server with Manage Roles
                </a>
              </p>
            )}
            <p className="text-xs text-muted-foreground">{bot.checkedAt ? `Checked ${when(bot.checkedAt)}` : "Not checked yet"}</p>
            <div className="flex flex-wrap gap-2">
              <IntentButton intent="check">Check again</IntentButton>
              <IntentButton intent="remove" variant="destructive">
                Remove
              </IntentButton>
            </div>
          </div>
        )}
        <Form method="post" className="grid gap-4">
          <input type="hidden" name="intent" value="save" />
          <FormError message={errors.form} />
          <Field id="token" label={bot ? "New bot token (leave empty to keep the saved one)" : "Bot token"} error={errors.token}>
            <Input {...fieldProps("token", errors.token)} type="password" autoComplete="off" required={!bot} />
          </Field>
          <Field id="guildId" label="Server id" hint="Right-click the server › Copy Server ID (Developer Mode on)." error={errors.guildId}>
            <Input {...fieldProps("guildId", errors.guildId)} inputMode="numeric" required defaultValue={guildId ?? bot?.guildId ?? ""} />
          </Field>
          <div>
            <Button type="submit" pending={pending}>
              {bot ? "Save and check" : "Save bot"}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

type Rule = {
  id: string;
  roleName: string;
  trigger: keyof typeof TRIGGER_WORDS;
  level: number | null;
  target: string | null;
  holding: number;
  waiting: number;
};

function ruleWords(rule: Rule) {
  switch (rule.trigger) {
    case "campaign":
      return `Completing ${rule.target ?? "a campaign"}`;
    case "crusade":
      return `Finishing ${rule.target ?? "a crusade"}`;
    case "level":
      return `Reaching level ${rule.level} in this project`;
    case "pool":
      return `Winning in the ${rule.target ?? ""} reward`;
  }
}

export function RuleList({ rules, removing }: { rules: Rule[]; removing: Array<{ id: string; roleName: string; waiting: number }> }) {
  return (
    <section aria-labelledby="rules-title" className="grid gap-3">
      <h2 id="rules-title" className="text-lg font-semibold">
        Roles as rewards
      </h2>
      {rules.length === 0 ? (
        <EmptyState icon={Shield} title="No role rules yet">
          Add one below: members who earn it receive the role in your server.
        </EmptyState>
      ) : (
        <ul className="grid gap-3">
          {rules.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 rounded-xl border bg-card p-4">
              <div className="grid gap-1">
                <p className="font-medium">@{r.roleName}</p>
                <p className="text-sm text-muted-foreground">{ruleWords(r)}</p>
                <p className="text-sm">
                  {r.holding} {r.holding === 1 ? "member holds it" : "members hold it"}
                  {r.waiting > 0 && <Badge variant="outline" className="ml-2">{`${r.waiting} waiting`}</Badge>}
                </p>
              </div>
              <IntentButton intent="remove-rule" id={r.id} variant="outline" label={`Remove the rule for ${r.roleName}`}>
                Remove
              </IntentButton>
            </li>
          ))}
        </ul>
      )}
      {removing.map((r) => (
        <p key={r.id} className="text-sm text-muted-foreground">
          Taking @{r.roleName} back from {r.waiting} {r.waiting === 1 ? "member" : "members"} (rule removed).
        </p>
      ))}
    </section>
  );
}

type Targets = { campaigns: Array<{ id: string; name: string }>; crusades: Array<{ id: string; name: string }>; pools: Array<{ id: string; name: string }> };

export function RuleForm({
  roles,
  rolesWhy,
  targets,
  errors = {},
}: {
  roles: Array<{ id: string; name: string }> | null;
  rolesWhy: string | null;
  targets: Targets;
  errors?: Record<string, string>;
}) {
  const [trigger, setTrigger] = useState<keyof typeof TRIGGER_WORDS>("campaign");
  const pending = usePendingIntent("add-rule");
  const options = { campaign: targets.campaigns, crusade: targets.crusades, pool: targets.pools } as const;
  const targetField = { campaign: "campaignId", crusade: "crusadeId", pool: "poolId" } as const;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Add a role rule</CardTitle>
        <CardDescription>
          The role is granted to members with a connected Discord account, and taken back if their approval is voided or they are excluded.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {!roles ? (
          <p className="text-sm text-muted-foreground">{rolesWhy}</p>
        ) : (
          <Form method="post" className="grid gap-4">
            <input type="hidden" name="intent" value="add-rule" />
            <FormError message={errors.form} />
            <Field id="roleId" label="Role" error={errors.roleId}>
              <Select {...fieldProps("roleId", errors.roleId)} required defaultValue="">
                <option value="" disabled>
                  Choose a role
                </option>
                {roles.map((r) => (
                  <option key={r.id} value={r.id}>
                    @{r.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="trigger" label="Granted for" error={errors.trigger}>
              <Select {...fieldProps("trigger", errors.trigger)} value={trigger} onChange={(e) => setTrigger(e.target.value as keyof typeof TRIGGER_WORDS)}>
                {Object.entries(TRIGGER_WORDS).map(([value, words]) => (
                  <option key={value} value={value}>
                    {words}
                  </option>
                ))}
              </Select>
            </Field>
            {trigger === "level" ? (
              <Field
                id="level"
                label="Level"
                hint="Counts all XP earned in this project, as its leaderboard does: level 2 at 100 XP, 3 at 300, 4 at 600."
                error={errors.level}
              >
                <Input {...fieldProps("level", errors.level)} type="number" min={2} max={100} required defaultValue={5} />
              </Field>
            ) : (
              <Field
                id={targetField[trigger]}
                label={{ campaign: "Campaign", crusade: "Crusade", pool: "Reward" }[trigger]}
                error={errors[targetField[trigger]]}
              >
                <Select {...fieldProps(targetField[trigger], errors[targetField[trigger]])} required defaultValue="" key={trigger}>
                  <option value="" disabled>
                    Choose
                  </option>
                  {options[trigger].map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.name}
                    </option>
                  ))}
                </Select>
              </Field>
            )}
            <div>
              <Button type="submit" pending={pending}>
                Add rule
              </Button>
            </div>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}

const OUTCOME_WORDS = { confirmed: "Confirmed", retry: "Will retry", failed: "Failed" } as const;

type LogRow = { id: number; action: "grant" | "remove"; outcome: keyof typeof OUTCOME_WORDS; detail: string; at: string; roleName: string; member: string };

export function RoleLog({ log }: { log: { page: number; hasMore: boolean; rows: LogRow[] } }) {
  return (
    <section aria-labelledby="log-title" className="grid gap-3">
      <h2 id="log-title" className="text-lg font-semibold">
        Log
      </h2>
      {log.rows.length === 0 ? (
        <EmptyState icon={ScrollText} title="Nothing asked of Discord yet">
          Every grant and removal the bot asks for, and Discord&apos;s answer, shows here.
        </EmptyState>
      ) : (
        <ul className="grid divide-y rounded-xl border bg-card">
          {log.rows.map((r) => (
            <li key={r.id} className="grid gap-1 p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">
                  {r.action === "grant" ? "Grant" : "Remove"} @{r.roleName} · {r.member}
                </span>
                <Badge variant={r.outcome === "confirmed" ? "secondary" : "outline"}>{OUTCOME_WORDS[r.outcome]}</Badge>
              </div>
              <p className="text-muted-foreground">{r.detail}</p>
              <p className="text-xs text-muted-foreground">{when(r.at)}</p>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={log.page} hasMore={log.hasMore} />
    </section>
  );
}
