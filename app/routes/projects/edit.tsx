import { data, useActionData } from "react-router";
import type { Route } from "./+types/edit";
import { PageHeader } from "~/components/page-header";
import { ProjectForm, projectFormImages, projectFormValues, type ProjectFormValues } from "~/components/projects/project-form";
import { RewardAssetForm } from "~/components/projects/reward-asset-form";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext, type Services } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { redirectWithToast } from "~/lib/flash.server";
import { authorize } from "~/modules/projects/permissions.server";
import { rewardAssetLabel } from "~/modules/projects/reward-asset";
import { projectSchema } from "~/modules/projects/project.schema";
import { listCategories, projectBySlug } from "~/modules/projects/projects.server";
import { REWARD_ASSET_INTENT, rewardAssetSchema } from "~/modules/projects/reward-asset.schema";
import { saveProject } from "~/modules/projects/save-project.server";
import { payableAssets, setRewardAsset } from "~/modules/projects/set-reward-asset.server";

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
  return { project: fields, categories: categories.map(({ id, name }) => ({ id, name })), rewardAssets: payableAssets(services.chains) };
}

type ActionData = { errors: Record<string, string>; values?: ProjectFormValues; rewardAsset?: string };

export async function action({ request, context, params }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const { category: _category, ...current } = await editable(services, user.id, params.project);
  const formData = await request.formData();
  if (formData.get("intent") === REWARD_ASSET_INTENT) {
    const chosen = { rewardAsset: String(formData.get("rewardAsset") ?? "") };
    const form = parseForm(rewardAssetSchema, formData);
    if (!form.ok) return formFailure(form, chosen);
    const saved = await setRewardAsset({
      db: services.database.db,
      chains: services.chains,
      projectId: current.id,
      actorId: user.id,
      asset: form.data.rewardAsset,
    });
    if (!saved.ok) return formFailure(saved, chosen);
    const message = saved.rewardAsset ? `Rewards are paid in ${rewardAssetLabel(saved.rewardAsset)}` : "No rewards token chosen";
    throw redirectWithToast(route("projects.edit", { project: current }), message, { appUrl: services.env.APP_URL });
  }
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

export default function EditProject({ loaderData: { project, categories, rewardAssets } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const rewardForm = actionData?.rewardAsset !== undefined;
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
      <div className="grid gap-6">
        <ProjectForm
          initial={initial}
          errors={rewardForm ? undefined : actionData?.errors}
          categories={categories}
          current={project}
          submitLabel="Save project"
          cancelTo={route("projects.show", { project })}
        />
        <RewardAssetForm
          current={project.rewardAsset}
          options={rewardAssets}
          chosen={actionData?.rewardAsset}
          errors={rewardForm ? actionData?.errors : undefined}
        />
      </div>
    </div>
  );
}
