import { BackToProject } from "~/components/projects/back-to-project";
import { takeBotCall } from "~/modules/community/bot-calls.server";
import { data } from "react-router";
import type { Route } from "./+types/discord";
import { PageHeader } from "~/components/page-header";
import { pageParam } from "~/components/pagination";
import { dataWithToast, redirectWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { requireUser } from "~/modules/auth/session.server";
import { checkDiscordBot, discordSettingsOf, removeDiscordBot, saveDiscordBot } from "~/modules/community/discord-settings.server";
import { discordBotFormValues } from "~/modules/community/discord-settings.schema";
import {
  addRoleReward,
  listRoleRewards,
  removeRoleReward,
  roleLogPage,
  ruleTargets,
  rulesBeingRemoved,
  serverRoles,
} from "~/modules/community/role-rewards.server";
import { roleRewardFormValues } from "~/modules/community/role-rewards.schema";
import { authorize } from "~/modules/projects/permissions.server";
import { projectBySlug } from "~/modules/projects/projects.server";
import { servicesContext } from "~/services/services.server";
import { BotCard, RoleLog, RuleForm, RuleList } from "./discord-parts";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Discord - ${loaderData.project.name}` : "Discord") }];
}

/** The project, when the member may manage its community (owner, admin); 404 or 403 otherwise. */
async function discordProject({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const project = await projectBySlug({ db: services.database.db, slug: params.project });
  if (!project) throw data("Not found", { status: 404 });
  await authorize({ db: services.database.db, projectId: project.id, userId: user.id, action: "community.manage" });
  return { services, user, project, db: services.database.db };
}

export async function loader(args: Route.LoaderArgs) {
  const { services, project, db } = await discordProject(args);
  const social = services.env.social;
  const settings = await discordSettingsOf({ db, projectId: project.id });
  const page = pageParam(new URL(args.request.url));
  const [rules, removing, targets, log, roles] = settings
    ? await Promise.all([
        listRoleRewards({ db, projectId: project.id }),
        rulesBeingRemoved({ db, projectId: project.id }),
        ruleTargets({ db, projectId: project.id }),
        roleLogPage({ db, projectId: project.id, page }),
        serverRoles({ db, social, projectId: project.id }),
      ])
    : [[], [], { campaigns: [], crusades: [], pools: [] }, { rows: [], hasMore: false }, { roles: null, why: "Save the bot first." }];
  return {
    project: { slug: project.slug, name: project.name },
    // Never the token: its bot's name and what it cannot do.
    bot: settings && { ...settings, checkedAt: settings.checkedAt?.toISOString() ?? null },
    rules,
    removing,
    targets,
    roles: roles.roles?.map((r) => ({ id: r.id, name: r.name })) ?? null,
    rolesWhy: roles.roles ? null : roles.why,
    log: { page, hasMore: log.hasMore, rows: log.rows.map((r) => ({ ...r, at: r.at.toISOString() })) },
  };
}

type ActionData = { errors?: Record<string, string>; values?: { guildId?: string } };

export async function action(args: Route.ActionArgs) {
  const { services, user, project, db } = await discordProject(args);
  const social = services.env.social;
  const formData = await args.request.formData();
  const intent = String(formData.get("intent") ?? "");
  const toast = { appUrl: services.env.APP_URL };
  const here = route("projects.discord", { project });
  if (intent === "save" || intent === "check" || intent === "add-rule") {
    const call = await takeBotCall({ db, projectId: project.id });
    if (!call.ok) return formFailure<ActionData>(call);
  }
  switch (intent) {
    case "save": {
      const input = discordBotFormValues(formData);
      const saved = await saveDiscordBot({ db, social, projectId: project.id, userId: user.id, input });
      if (!saved.ok) return formFailure<ActionData>(saved, { values: { guildId: input.guildId } });
      return redirectWithToast(here, saved.problems.length ? "Bot saved: see what it still needs" : "Bot saved: it can grant your roles", toast);
    }
    case "check": {
      const checked = await checkDiscordBot({ db, social, projectId: project.id });
      if (!checked.ok) return formFailure<ActionData>(checked);
      return dataWithToast<ActionData>({}, checked.problems.length ? "Checked: see what the bot still needs" : "Checked: the bot can grant your roles", toast);
    }
    case "remove": {
      await removeDiscordBot({ db, projectId: project.id });
      return redirectWithToast(here, "Bot removed: its token is deleted", toast);
    }
    case "add-rule": {
      const added = await addRoleReward({ db, social, projectId: project.id, userId: user.id, input: roleRewardFormValues(formData) });
      if (!added.ok) return formFailure<ActionData>(added);
      return redirectWithToast(here, "Rule added: members who earned it get the role on the next run", toast);
    }
    case "remove-rule": {
      const removed = await removeRoleReward({ db, projectId: project.id, rewardId: String(formData.get("id") ?? "") });
      if (!removed.ok) return formFailure<ActionData>(removed);
      return redirectWithToast(here, "Rule removed: its roles are taken back on the next run", toast);
    }
    default:
      throw data("Unknown action", { status: 400 });
  }
}

export default function DiscordPage({ loaderData, actionData }: Route.ComponentProps) {
  const { project, bot, rules, removing, targets, roles, rolesWhy, log } = loaderData;
  const result = actionData as ActionData | undefined;
  return (
    <>
      <PageHeader
        title="Discord"
        description={`${project.name}'s Discord bot, and the server roles members earn.`}
        actions={<BackToProject project={project} />}
      />
      <div className="grid gap-6">
        <BotCard bot={bot} errors={result?.errors} guildId={result?.values?.guildId} />
        {bot && (
          <>
            <RuleList rules={rules} removing={removing} />
            <RuleForm roles={roles} rolesWhy={rolesWhy} targets={targets} errors={result?.errors} />
            <RoleLog log={log} />
          </>
        )}
      </div>
    </>
  );
}
