import { Lock } from "lucide-react";
import { Link, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/edit";
import { AirdropForm } from "~/components/airdrops/airdrop-form";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
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
import { airdropFormDefaults, parseAirdropForm, type AirdropValues } from "~/modules/airdrops/airdrop-form";
import { airdropPage, airdropTokenOptions, distributorChains } from "~/modules/airdrops/airdrop-pages.server";
import { airdropOpen } from "~/modules/airdrops/airdrop-phase";
import { saveAirdrop } from "~/modules/airdrops/airdrops.server";
import { KEPT_NOTE } from "~/modules/rewards/promise-words";
import { airdropEntered } from "~/modules/rewards/promises.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Edit ${loaderData.airdrop.name}` : "Edit airdrop") }];
}

async function managedAirdrop({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const db = services.database.db;
  const page = await airdropPage({ db, projectSlug: params.project, airdropSlug: params.airdrop, userId: user.id });
  await authorize({ db, projectId: page.project.id, userId: user.id, action: "quests.manage" });
  return { db, services, chains: distributorChains(services.chains), ...page };
}

export async function loader(args: Route.LoaderArgs) {
  const { db, services, project, airdrop, phase, chains } = await managedAirdrop(args);
  return {
    gate: { defaults: gateValues(airdrop.gate), networks: gateNetworks(services.chains) },
    project: { slug: project.slug, name: project.name },
    airdrop: { slug: airdrop.slug, name: airdrop.name, startsAt: airdrop.startsAt, endsAt: airdrop.endsAt, claimDeadline: airdrop.claimDeadline },
    defaults: airdropFormDefaults(airdrop),
    // A frozen or ended airdrop no longer changes (saveAirdrop refuses it); a live one keeps its token and rule.
    closed: !airdropOpen(airdrop),
    // Once a member has earned points it also stays published and started, its total only raised (promises.server.ts).
    keptNote: airdropOpen(airdrop) && (await airdropEntered(db, airdrop.id)) ? KEPT_NOTE.airdrop : null,
    locked: phase === "live",
    tokens: await airdropTokenOptions({ db, projectId: project.id, chainIds: chains }),
  };
}

type ActionData = { errors: FieldErrors; values: AirdropValues; gate: GateValues };

export async function action(args: Route.ActionArgs) {
  const { db, services, project, airdrop, chains } = await managedAirdrop(args);
  const formData = await args.request.formData();
  const { values, form: fields } = parseAirdropForm(formData);
  const gate = await parseGateForm(formData, services.chains);
  const form = withGate(fields, gate.gate);
  if (!form.ok) return formFailure(form, { values, gate: gate.values });
  const saved = await saveAirdrop({ db, projectId: project.id, airdropId: airdrop.id, input: form.data, gate: form.gate, distributorChains: chains });
  if (!saved.ok) return formFailure(saved, { values, gate: gate.values });
  throw redirectWithToast(route("airdrops.show", { project: project.slug, airdrop: saved.airdrop.slug }), "Airdrop saved", { appUrl: services.env.APP_URL });
}

export default function EditAirdrop({ loaderData: { project, airdrop, defaults, closed, locked, keptNote, tokens, gate } }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const values = actionData?.values;
  const list = route("projects.airdrops", { project: project.slug });
  const show = route("airdrops.show", { project: project.slug, airdrop: airdrop.slug });
  return (
    <>
      <ProjectCrumb
        project={project}
        trail={[
          { label: "Airdrops", to: list },
          { label: airdrop.name, to: show },
        ]}
      />
      <PageHeader title={`Edit ${airdrop.name}`} />
      {closed ? (
        <EmptyState
          icon={Lock}
          title="This airdrop has ended"
          action={
            <Button asChild variant="outline">
              <Link to={show}>Back to {airdrop.name}</Link>
            </Button>
          }
        >
          Its points are final and its allocation is worked out from them: it can no longer change.
        </EmptyState>
      ) : (
        <AirdropForm
          isNew={false}
          defaults={{
            ...defaults,
            ...values,
            startsAt: values ? { typed: values.startsAt } : { at: airdrop.startsAt },
            endsAt: values ? { typed: values.endsAt } : { at: airdrop.endsAt },
            claimDeadline: values ? { typed: values.claimDeadline } : { at: airdrop.claimDeadline },
          }}
          errors={actionData?.errors ?? {}}
          tokens={tokens}
          locked={locked || keptNote !== null}
          keptNote={keptNote}
          pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
          submitLabel="Save airdrop"
          cancelTo={show}
          addressPrefix={`${list}/`}
          fundTo={route("projects.rewards", { project: project.slug })}
          gate={{ defaults: actionData?.gate ?? gate.defaults, networks: gate.networks }}
        />
      )}
    </>
  );
}
