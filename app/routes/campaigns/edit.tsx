import { useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/edit";
import { CampaignForm } from "~/components/campaigns/campaign-form";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { PageHeader } from "~/components/page-header";
import type { FieldErrors } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { redirectWithToast } from "~/lib/flash.server";
import { formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { gateNetworks, parseGateForm, withGate } from "~/modules/trust/gate-form.server";
import { gateValues, type GateValues } from "~/modules/trust/gate-values";
import { requireUser } from "~/modules/auth/session.server";
import { authorize } from "~/modules/projects/permissions.server";
import { KEPT_NOTE } from "~/modules/rewards/promise-words";
import { campaignEntered } from "~/modules/rewards/promises.server";
import { saveCampaign } from "~/modules/tasks/campaigns.server";
import { parseCampaignForm, type CampaignValues } from "~/modules/tasks/quest-forms";
import { campaignPage } from "~/modules/tasks/quest-pages.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Edit ${loaderData.campaign.name}` : "Edit campaign") }];
}

async function managedCampaign({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const page = await campaignPage({ db, projectSlug: params.project, campaignSlug: params.campaign, userId: user.id });
  await authorize({ db, projectId: page.project.id, userId: user.id, action: "quests.manage" });
  return { db, ...page };
}

export async function loader(args: Route.LoaderArgs) {
  const { db, project, campaign } = await managedCampaign(args);
  const entered = await campaignEntered(db, campaign.id);
  return {
    project: { slug: project.slug, name: project.name },
    campaign,
    keptNote: entered ? KEPT_NOTE.campaign : null,
    gate: gateValues(campaign.gate),
    networks: gateNetworks(args.context.get(servicesContext).chains),
  };
}

type ActionData = { errors: FieldErrors; values: CampaignValues; gate: GateValues };

export async function action(args: Route.ActionArgs) {
  const { db, project, campaign } = await managedCampaign(args);
  const chains = args.context.get(servicesContext).chains;
  const formData = await args.request.formData();
  const { values, form: fields } = parseCampaignForm(formData);
  const gate = await parseGateForm(formData, chains);
  const form = withGate(fields, gate.gate);
  if (!form.ok) return formFailure(form, { values, gate: gate.values });
  const saved = await saveCampaign({ db, projectId: project.id, campaignId: campaign.id, input: form.data, gate: form.gate });
  if (!saved.ok) return formFailure(saved, { values, gate: gate.values });
  throw redirectWithToast(route("campaigns.show", { project: project.slug, campaign: saved.value.slug }), "Campaign saved", {
    appUrl: args.context.get(servicesContext).env.APP_URL,
  });
}

export default function EditCampaign({ loaderData: { project, campaign, keptNote, gate, networks } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const values = actionData?.values;
  const list = route("projects.campaigns", { project: project.slug });
  const show = route("campaigns.show", { project: project.slug, campaign: campaign.slug });
  return (
    <>
      <ProjectCrumb
        project={project}
        trail={[
          { label: "Campaigns", to: list },
          { label: campaign.name, to: show },
        ]}
      />
      <PageHeader title={`Edit ${campaign.name}`} />
      <CampaignForm
        isNew={false}
        defaults={{
          name: values?.name ?? campaign.name,
          slug: values?.slug ?? campaign.slug,
          description: values?.description ?? campaign.description,
          startsAt: values ? { typed: values.startsAt } : { at: campaign.startsAt },
          endsAt: values ? { typed: values.endsAt } : { at: campaign.endsAt },
          published: values?.published ?? campaign.publishedAt !== null,
        }}
        errors={actionData?.errors ?? {}}
        pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
        submitLabel="Save campaign"
        cancelTo={show}
        addressPrefix={`${list}/`}
        gate={{ defaults: actionData?.gate ?? gate, networks }}
        keptNote={keptNote}
      />
    </>
  );
}
