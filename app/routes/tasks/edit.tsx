import { data, useActionData } from "react-router";
import type { Route } from "./+types/edit";
import { PageHeader } from "~/components/page-header";
import { TaskForm } from "~/components/tasks/task-form";
import { pageTitle } from "~/lib/meta";
import { redirectWithToast } from "~/lib/flash.server";
import { formFailure, invalidFields } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { authorize } from "~/modules/projects/permissions.server";
import { onchainNetworks, readTaskForm, taskFormOptions, taskFormRefusals, taskFormValues } from "~/modules/tasks/task-form.server";
import { saveTask, taskWithProject } from "~/modules/tasks/tasks.server";
import { apiCheckTools } from "~/modules/tasks/api-check-tools.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Edit ${loaderData.task.title}` : "Edit task") }];
}

/** The task and its project, once the member may manage the project's quests (403 otherwise). */
async function manageableTask({ request, params, context }: Route.LoaderArgs | Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const row = await taskWithProject({ db: services.database.db, taskId: params.task });
  if (!row) throw data("Not found", { status: 404 });
  const role = await authorize({ db: services.database.db, projectId: row.project.id, userId: user.id, action: "quests.manage" });
  return { services, role, ...row };
}

export async function loader(args: Route.LoaderArgs) {
  const { services, task, project, role } = await manageableTask(args);
  const options = await taskFormOptions({
    db: services.database.db,
    projectId: project.id,
    chainIds: onchainNetworks(services.chains),
    socialProviders: services.env.social.connectable,
    keepAirdropId: task.airdropId,
  });
  return {
    task: { id: task.id, title: task.title, slotsTaken: task.slotsTaken },
    project: { slug: project.slug, name: project.name },
    values: taskFormValues(task),
    ...options,
    apiCheck: apiCheckTools({ slug: project.slug, role, taskId: task.id }),
  };
}

export async function action(args: Route.ActionArgs) {
  const { services, task, project } = await manageableTask(args);
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
  const saved = await saveTask({ db: services.database.db, projectId: project.id, taskId: task.id, input: form.input });
  if (!saved.ok) return formFailure(saved, { values: form.values });
  return redirectWithToast(route("tasks.show", { task: task.id }), "Task saved", { appUrl: services.env.APP_URL });
}

export default function EditTask({ loaderData: { task, project, values, types, campaigns, airdrops, networks, apiCheck } }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Edit task" description={`${task.title} · ${project.name}`} />
      <TaskForm
        types={types}
        values={actionData?.values ?? values}
        errors={actionData?.errors}
        campaigns={campaigns}
        airdrops={airdrops}
        networks={networks}
        slotsTaken={task.slotsTaken}
        apiCheck={apiCheck}
        submitLabel="Save task"
        cancelTo={route("tasks.show", { task: task.id })}
      />
    </div>
  );
}
