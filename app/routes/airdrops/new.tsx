import { useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/new";
import { AirdropForm } from "~/components/airdrops/airdrop-form";
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
import { parseAirdropForm, type AirdropValues } from "~/modules/airdrops/airdrop-form";
import { airdropTokenOptions, distributorChains } from "~/modules/airdrops/airdrop-pages.server";
import { saveAirdrop } from "~/modules/airdrops/airdrops.server";
import { endAlreadyPast } from "~/modules/tasks/quest-forms";
import { managedProjectPage } from "~/modules/tasks/quest-pages.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "New airdrop") }];
}

async function managedProject({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const db = services.database.db;
  const { project } = await managedProjectPage({ db, slug: params.project, userId: user.id });
  return { db, services, project, chains: distributorChains(services.chains) };
}

export async function loader(args: Route.LoaderArgs) {
  const { db, services, project, chains } = await managedProject(args);
  return {
    gate: { defaults: gateValues(null), networks: gateNetworks(services.chains) },
    project: { slug: project.slug, name: project.name, rewardAsset: project.rewardAsset },
    tokens: await airdropTokenOptions({ db, projectId: project.id, chainIds: chains }),
  };
}

type ActionData = { errors: FieldErrors; values: AirdropValues; gate: GateValues };

export async function action(args: Route.ActionArgs) {
  const { db, services, project, chains } = await managedProject(args);
  const formData = await args.request.formData();
  const { values, form: fields } = parseAirdropForm(formData);
  const gate = await parseGateForm(formData, services.chains);
  const form = withGate(fields, gate.gate);
  if (!form.ok) return formFailure(form, { values, gate: gate.values });
  const past = endAlreadyPast(form.data.endsAt, new Date());
  if (past) return formFailure(past, { values, gate: gate.values });
  const saved = await saveAirdrop({ db, projectId: project.id, input: form.data, gate: form.gate, distributorChains: chains });
  if (!saved.ok) return formFailure(saved, { values, gate: gate.values });
  throw redirectWithToast(route("airdrops.show", { project: project.slug, airdrop: saved.airdrop.slug }), "Airdrop created", { appUrl: services.env.APP_URL });
}

export default function NewAirdrop({ loaderData: { project, tokens, gate } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const values = actionData?.values;
  const list = route("projects.airdrops", { project: project.slug });
  return (
    <>
      <ProjectCrumb project={project} trail={[{ label: "Airdrops", to: list }]} />
      <PageHeader
        title="New airdrop"
        description="A token airdrop: members earn points with its tasks, and share its total by points when it ends. Add its tasks once it is created."
      />
      <AirdropForm
        isNew
        defaults={{
          name: values?.name ?? "",
          slug: values?.slug ?? "",
          description: values?.description ?? "",
          asset: values?.asset ?? "",
          rule: values?.rule ?? "pro_rata",
          total: values?.total ?? "",
          rankAmounts: values?.rankAmounts ?? "",
          minPoints: values?.minPoints ?? "0",
          startsAt: values ? { typed: values.startsAt } : null,
          endsAt: values ? { typed: values.endsAt } : null,
          claimDeadline: values ? { typed: values.claimDeadline } : null,
          published: values?.published ?? false,
        }}
        errors={actionData?.errors ?? {}}
        tokens={tokens}
        locked={false}
        pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
        submitLabel="Create airdrop"
        cancelTo={list}
        addressPrefix={`${list}/`}
        rewardAsset={project.rewardAsset}
        fundTo={route("projects.rewards", { project: project.slug })}
        gate={{ defaults: actionData?.gate ?? gate.defaults, networks: gate.networks }}
      />
    </>
  );
}
