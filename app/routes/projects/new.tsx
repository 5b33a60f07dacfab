import { useActionData } from "react-router";
import type { Route } from "./+types/new";
import { PageHeader } from "~/components/page-header";
import { ProjectForm, projectFormImages, projectFormValues, type ProjectFormValues } from "~/components/projects/project-form";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { redirectWithToast } from "~/lib/flash.server";
import { projectSchema } from "~/modules/projects/project.schema";
import { listCategories } from "~/modules/projects/projects.server";
import { saveProject } from "~/modules/projects/save-project.server";
import { claimNewProject } from "~/modules/projects/send-limits.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "New project") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  const categories = await listCategories({ db: context.get(servicesContext).database.db });
  return { categories: categories.map(({ id, name }) => ({ id, name })) };
}

type ActionData = { errors: Record<string, string>; values: ProjectFormValues };

export async function action({ request, context }: Route.ActionArgs) {
  const { database, env } = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const formData = await request.formData();
  const values = projectFormValues(formData);
  const form = parseForm(projectSchema, formData);
  if (!form.ok) return formFailure(form, { values });
  const allowed = await claimNewProject({ db: database.db, limits: env, userId: user.id });
  if (!allowed.ok) return formFailure(allowed, { values });
  const saved = await saveProject({
    db: database.db,
    dataDir: env.DATA_DIR,
    userId: user.id,
    input: form.data,
    images: projectFormImages(formData),
  });
  if (!saved.ok) return formFailure(saved, { values });
  throw redirectWithToast(route("projects.show", { project: saved.project }), `${saved.project.name} is created. Invite your team and add tasks.`, {
    appUrl: env.APP_URL,
  });
}

const EMPTY: ProjectFormValues = { name: "", slug: "", description: "", categoryId: "", website: "", xUrl: "", discordUrl: "", telegramUrl: "" };

export default function NewProject({ loaderData: { categories } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="New project" description="You become its owner; invite your team once it exists." />
      <ProjectForm
        initial={actionData?.values ?? EMPTY}
        errors={actionData?.errors}
        categories={categories}
        submitLabel="Create project"
        cancelTo={route("projects.index")}
      />
    </div>
  );
}
