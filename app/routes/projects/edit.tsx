import { data, useActionData } from "react-router";
import type { Route } from "./+types/edit";
import { PageHeader } from "~/components/page-header";
import { ProjectForm, projectFormImages, projectFormValues, type ProjectFormValues } from "~/components/projects/project-form";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext, type Services } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { redirectWithToast } from "~/lib/flash.server";
import { authorize } from "~/modules/projects/permissions.server";
import { projectSchema } from "~/modules/projects/project.schema";
import { listCategories, projectBySlug } from "~/modules/projects/projects.server";
import { saveProject } from "~/modules/projects/save-project.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Edit ${loaderData.project.name}` : "Edit project") }];
}

/** The project, when the signed-in member may edit it (404 / 403 otherwise). */
async function editable(services: Services, userId: string, slug: string) {
  const project = await projectBySlug({ db: services.database.db, slug });
  if (!project) throw data("Not found", { status: 404 });
  await authorize({ db: services.database.db, projectId: project.id, userId, action: "project.edit" });
  return project;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const project = await editable(services, user.id, params.project);
  const categories = await listCategories({ db: services.database.db });
  const { category: _category, ...fields } = project;
  return { project: fields, categories: categories.map(({ id, name }) => ({ id, name })) };
}

type ActionData = { errors: Record<string, string>; values: ProjectFormValues };

export async function action({ request, context, params }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const { category: _category, ...current } = await editable(services, user.id, params.project);
  const formData = await request.formData();
  const values = projectFormValues(formData);
  const form = parseForm(projectSchema, formData);
  if (!form.ok) return formFailure(form, { values });
  const saved = await saveProject({
    db: services.database.db,
    dataDir: services.env.DATA_DIR,
    userId: user.id,
    current,
    input: form.data,
    images: projectFormImages(formData),
  });
  if (!saved.ok) return formFailure(saved, { values });
  throw redirectWithToast(route("projects.show", { project: saved.project }), "Project saved", { appUrl: services.env.APP_URL });
}

export default function EditProject({ loaderData: { project, categories } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const initial: ProjectFormValues = actionData?.values ?? {
    name: project.name,
    slug: project.slug,
    description: project.description,
    categoryId: project.categoryId === null ? "" : String(project.categoryId),
    website: project.website ?? "",
    xUrl: project.xUrl ?? "",
    discordUrl: project.discordUrl ?? "",
    telegramUrl: project.telegramUrl ?? "",
  };
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title={`Edit ${project.name}`} description="Changing the address changes the project's links." />
      <ProjectForm
        initial={initial}
        errors={actionData?.errors}
        categories={categories}
        current={project}
        submitLabel="Save project"
        cancelTo={route("projects.show", { project })}
      />
    </div>
  );
}
