import { useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/new";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { CrusadeForm } from "~/components/crusades/crusade-form";
import { PageHeader } from "~/components/page-header";
import type { FieldErrors } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { redirectWithToast } from "~/lib/flash.server";
import { formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { saveCrusade } from "~/modules/tasks/campaigns.server";
import { parseCrusadeForm, type CrusadeValues } from "~/modules/tasks/quest-forms";
import { managedProjectPage, pickableTasks } from "~/modules/tasks/quest-pages.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "New crusade") }];
}

async function managedProject({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const { project } = await managedProjectPage({ db, slug: params.project, userId: user.id });
  return { db, project };
}

export async function loader(args: Route.LoaderArgs) {
  const { db, project } = await managedProject(args);
  return { project: { slug: project.slug, name: project.name }, tasks: await pickableTasks({ db, projectId: project.id }) };
}

type ActionData = { errors: FieldErrors; values: CrusadeValues };

export async function action(args: Route.ActionArgs) {
  const { db, project } = await managedProject(args);
  const { values, form } = parseCrusadeForm(await args.request.formData());
  if (!form.ok) return formFailure(form, { values });
  const saved = await saveCrusade({ db, projectId: project.id, input: form.data });
  if (!saved.ok) return formFailure(saved, { values });
  throw redirectWithToast(route("crusades.show", { project: project.slug, crusade: saved.value.slug }), "Crusade created", {
    appUrl: args.context.get(servicesContext).env.APP_URL,
  });
}

export default function NewCrusade({ loaderData: { project, tasks } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const list = route("projects.crusades", { project: project.slug });
  return (
    <>
      <ProjectCrumb project={project} trail={[{ label: "Crusades", to: list }]} />
      <PageHeader title="New crusade" description="An ordered series of the project's tasks: each unlocks when the previous one is approved." />
      <CrusadeForm
        defaults={actionData?.values ?? { name: "", slug: "", description: "", bonusXp: "0", published: false, taskIds: [] }}
        errors={actionData?.errors ?? {}}
        tasks={tasks}
        crusadeId={null}
        projectSlug={project.slug}
        pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
        submitLabel="Create crusade"
        cancelTo={list}
        addressPrefix={`${list}/`}
      />
    </>
  );
}
