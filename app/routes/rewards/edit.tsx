import { data, redirect, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/edit";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { RewardPoolForm } from "~/components/campaigns/reward-pool-form";
import { RewardsClosed } from "~/components/campaigns/rewards-closed";
import { PageHeader } from "~/components/page-header";
import type { FieldErrors } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/lib/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { parseRewardForm, rewardPoolValues, type RewardPoolValues } from "~/modules/rewards/reward-form";
import { rewardPage } from "~/modules/rewards/reward-pages.server";
import { deleteRewardPool, updateRewardPool } from "~/modules/rewards/reward-pools.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Edit reward") }];
}

async function page({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const found = await rewardPage({ db, projectSlug: params.project, campaignSlug: params.campaign, poolId: params.reward, userId: user.id });
  return { db, user, ...found, pool: found.pool! };
}

export async function loader(args: Route.LoaderArgs) {
  const { project, campaign, pool, ended } = await page(args);
  return {
    project: { slug: project.slug, name: project.name },
    campaign: { slug: campaign.slug, name: campaign.name },
    values: rewardPoolValues(pool),
    closed: ended || pool.status !== "open",
  };
}

type ActionData = { errors: FieldErrors; values?: RewardPoolValues };

export async function action(args: Route.ActionArgs) {
  const { db, user, project, campaign, pool } = await page(args);
  const formData = await args.request.formData();
  const back = (saved: string) => redirect(route("campaigns.show", { project: project.slug, campaign: campaign.slug, saved }));
  if (formData.get("intent") === "delete") {
    const deleted = await deleteRewardPool({ db, campaignId: campaign.id, poolId: pool.id, actorId: user.id });
    if (!deleted.ok) return data<ActionData>({ errors: { form: deleted.error } }, { status: 400 });
    throw back("reward-deleted");
  }
  const { values, form } = parseRewardForm(formData);
  if (!form.ok) return data<ActionData>({ errors: form.errors, values }, { status: 400 });
  const saved = await updateRewardPool({ db, campaignId: campaign.id, poolId: pool.id, actorId: user.id, input: form.data });
  if (!saved.ok) return data<ActionData>({ errors: { [saved.field]: saved.error }, values }, { status: 400 });
  throw back("reward-updated");
}

export default function EditReward({ loaderData: { project, campaign, values, closed } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const show = route("campaigns.show", { project: project.slug, campaign: campaign.slug });
  return (
    <>
      <ProjectCrumb
        project={project}
        trail={[
          { label: "Campaigns", to: route("projects.campaigns", { project: project.slug }) },
          { label: campaign.name, to: show },
        ]}
      />
      <PageHeader title="Edit reward" description={`An XP reward for ${campaign.name}, paid when the campaign ends.`} />
      {closed ? (
        <RewardsClosed backTo={show} />
      ) : (
        <RewardPoolForm
          defaults={actionData?.values ?? values}
          errors={actionData?.errors ?? {}}
          pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
          submitLabel="Save reward"
          cancelTo={show}
        />
      )}
    </>
  );
}
