import { useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/new";
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
import { saveCampaign } from "~/modules/tasks/campaigns.server";
import { endAlreadyPast, parseCampaignForm, type CampaignValues } from "~/modules/tasks/quest-forms";
import { managedProjectPage } from "~/modules/tasks/quest-pages.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "New campaign") }];
}

async function managedProject({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const { project } = await managedProjectPage({ db, slug: params.project, userId: user.id });
  return { db, project };
}

export async function loader(args: Route.LoaderArgs) {
  const { project } = await managedProject(args);
  return { project: { slug: project.slug, name: project.name }, networks: gateNetworks(args.context.get(servicesContext).chains) };
}

type ActionData = { errors: FieldErrors; values: CampaignValues; gate: GateValues };

export async function action(args: Route.ActionArgs) {
  const { db, project } = await managedProject(args);
  const chains = args.context.get(servicesContext).chains;
  const formData = await args.request.formData();
  const { values, form: fields } = parseCampaignForm(formData);
  const gate = await parseGateForm(formData, chains);
  const form = withGate(fields, gate.gate);
  if (!form.ok) return formFailure(form, { values, gate: gate.values });
  const past = endAlreadyPast(form.data.endsAt, new Date());
  if (past) return formFailure(past, { values, gate: gate.values });
  const saved = await saveCampaign({ db, projectId: project.id, input: form.data, gate: form.gate });
  if (!saved.ok) return formFailure(saved, { values, gate: gate.values });
  throw redirectWithToast(route("campaigns.show", { project: project.slug, campaign: saved.value.slug }), "Campaign created", {
    appUrl: args.context.get(servicesContext).env.APP_URL,
  });
}

export default function NewCampaign({ loaderData: { project, networks } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const values = actionData?.values;
  const list = route("projects.campaigns", { project: project.slug });
  return (
    <>
      <ProjectCrumb project={project} trail={[{ label: "Campaigns", to: list }]} />
      <PageHeader title="New campaign" description="A time-boxed set of tasks. Add its tasks once it is created." />
      <CampaignForm
        isNew
        defaults={{
          name: values?.name ?? "",
          slug: values?.slug ?? "",
          description: values?.description ?? "",
          startsAt: values ? { typed: values.startsAt } : null,
          endsAt: values ? { typed: values.endsAt } : null,
          published: values?.published ?? false,
        }}
        errors={actionData?.errors ?? {}}
        pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
        submitLabel="Create campaign"
        cancelTo={list}
        addressPrefix={`${list}/`}
        gate={{ defaults: actionData?.gate ?? gateValues(null), networks }}
      />
    </>
  );
}
