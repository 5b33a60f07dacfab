import { data, useActionData } from "react-router";
import type { Route } from "./+types/new";
import { PageHeader } from "~/components/page-header";
import { TaskForm } from "~/components/tasks/task-form";
import { pageTitle } from "~/lib/meta";
import { redirectWithToast } from "~/lib/flash.server";
import { formFailure, invalidFields } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { authorize } from "~/modules/projects/permissions.server";
import { projectBySlug } from "~/modules/projects/projects.server";
import { NEW_TASK_VALUES, onchainNetworks, readTaskForm, taskFormOptions, taskFormRefusals } from "~/modules/tasks/task-form.server";
import { endAlreadyPast } from "~/modules/tasks/quest-forms";
import { saveTask } from "~/modules/tasks/tasks.server";
import { apiCheckTools } from "~/modules/tasks/api-check-tools.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "New task") }];
}

/** The project, once the member may manage its quests (403 otherwise). */
async function manageableProject({ request, params, context }: Route.LoaderArgs | Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const project = await projectBySlug({ db: services.database.db, slug: params.project });
  if (!project) throw data("Not found", { status: 404 });
  const role = await authorize({ db: services.database.db, projectId: project.id, userId: user.id, action: "quests.manage" });
  return { services, project, role };
}

export async function loader(args: Route.LoaderArgs) {
  const { services, project, role } = await manageableProject(args);
  const options = await taskFormOptions({
    db: services.database.db,
    projectId: project.id,
    chainIds: onchainNetworks(services.chains),
    socialProviders: services.env.social.connectable,
  });
  // "Add task" on a campaign's or an airdrop's page preselects it (when it is one the form offers).
  const search = new URL(args.request.url).searchParams;
  const campaignId = options.campaigns.find((c) => c.id === search.get("campaignId"))?.id ?? "";
  const airdropId = options.airdrops.find((a) => a.id === search.get("airdrop"))?.id ?? "";
  return {
    project: { slug: project.slug, name: project.name },
    values: { ...NEW_TASK_VALUES, campaignId, airdropId },
    ...options,
    apiCheck: apiCheckTools({ slug: project.slug, role, taskId: null }),
  };
}

export async function action(args: Route.ActionArgs) {
  const { services, project } = await manageableProject(args);
  const form = readTaskForm(await args.request.formData(), { chainIds: onchainNetworks(services.chains) });
  if (!form.ok) return formFailure(form, { values: form.values });
  const refused = await taskFormRefusals({
    db: services.database.db,
    chains: services.chains,
    projectId: project.id,
    input: form.input,
    allowLoopback: !services.env.isPublic,
  });
  if (Object.keys(refused).length > 0) return formFailure(invalidFields(refused), { values: form.values });
  const past = endAlreadyPast(form.input.endsAt, new Date());
  if (past) return formFailure(past, { values: form.values });
  const saved = await saveTask({ db: services.database.db, projectId: project.id, input: form.input });
  if (!saved.ok) return formFailure(saved, { values: form.values });
  return redirectWithToast(route("tasks.show", { task: saved.task.id }), "Task created", { appUrl: services.env.APP_URL });
}

export default function NewTask({ loaderData: { project, values, types, campaigns, airdrops, networks, apiCheck } }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="New task" description={`A task of ${project.name}: members do it and earn XP.`} />
      <TaskForm
        types={types}
        values={actionData?.values ?? values}
        errors={actionData?.errors}
        campaigns={campaigns}
        airdrops={airdrops}
        networks={networks}
        apiCheck={apiCheck}
        submitLabel="Create task"
        cancelTo={route("projects.show", { project: project.slug })}
      />
    </div>
  );
}
