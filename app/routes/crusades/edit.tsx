import { useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/edit";
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
import { authorize } from "~/modules/projects/permissions.server";
import { crusadeSteps, saveCrusade } from "~/modules/tasks/campaigns.server";
import { parseCrusadeForm, type CrusadeValues } from "~/modules/tasks/quest-forms";
import { crusadePage, pickableTasks } from "~/modules/tasks/quest-pages.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Edit ${loaderData.crusade.name}` : "Edit crusade") }];
}

async function managedCrusade({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const page = await crusadePage({ db, projectSlug: params.project, crusadeSlug: params.crusade, userId: user.id });
  await authorize({ db, projectId: page.project.id, userId: user.id, action: "quests.manage" });
  return { db, ...page };
}

export async function loader(args: Route.LoaderArgs) {
  const { db, project, crusade } = await managedCrusade(args);
  const [tasks, steps] = await Promise.all([pickableTasks({ db, projectId: project.id }), crusadeSteps({ db, crusadeId: crusade.id, userId: null })]);
  return { project: { slug: project.slug, name: project.name }, crusade, taskIds: steps.map((s) => s.task.id), tasks };
}

type ActionData = { errors: FieldErrors; values: CrusadeValues };

export async function action(args: Route.ActionArgs) {
  const { db, project, crusade } = await managedCrusade(args);
  const { values, form } = parseCrusadeForm(await args.request.formData());
  if (!form.ok) return formFailure(form, { values });
  const saved = await saveCrusade({ db, projectId: project.id, crusadeId: crusade.id, input: form.data });
  if (!saved.ok) return formFailure(saved, { values });
  throw redirectWithToast(route("crusades.show", { project: project.slug, crusade: saved.value.slug }), "Crusade saved", {
    appUrl: args.context.get(servicesContext).env.APP_URL,
  });
}

export default function EditCrusade({ loaderData: { project, crusade, taskIds, tasks } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const list = route("projects.crusades", { project: project.slug });
  const show = route("crusades.show", { project: project.slug, crusade: crusade.slug });
  return (
    <>
      <ProjectCrumb
        project={project}
        trail={[
          { label: "Crusades", to: list },
          { label: crusade.name, to: show },
        ]}
      />
      <PageHeader title={`Edit ${crusade.name}`} />
      <CrusadeForm
        defaults={
          actionData?.values ?? {
            name: crusade.name,
            slug: crusade.slug,
            description: crusade.description,
            bonusXp: String(crusade.bonusXp),
            published: crusade.publishedAt !== null,
            taskIds,
          }
        }
        errors={actionData?.errors ?? {}}
        tasks={tasks}
        crusadeId={crusade.id}
        projectSlug={project.slug}
        pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
        submitLabel="Save crusade"
        cancelTo={show}
        addressPrefix={`${list}/`}
      />
    </>
  );
}
