import { useActionData, useNavigation } from "react-router";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { RewardPoolForm, type TreasuryAsset } from "~/components/campaigns/reward-pool-form";
import { RewardsClosed } from "~/components/campaigns/rewards-closed";
import { PageHeader } from "~/components/page-header";
import type { FieldErrors } from "~/lib/forms";
import { route } from "~/lib/routes";
import type { RewardPoolValues } from "~/modules/rewards/reward-form";
import type { GateValues } from "~/modules/trust/gate-values";

/** What the reward screens' actions answer with when the input is refused. */
export type RewardActionData = { errors: FieldErrors; values?: RewardPoolValues; gate?: GateValues };

/** Create reward / Edit reward: the campaign's crumbs, then the form, or why rewards can no longer change. */
export function RewardPoolScreen({
  title,
  project,
  campaign,
  closed,
  defaults,
  submitLabel,
  treasury,
  defaultsDecimals = null,
  kindFixed = false,
  note = null,
  gate = null,
}: {
  title: string;
  project: { slug: string; name: string };
  campaign: { slug: string; name: string };
  closed: boolean;
  defaults: RewardPoolValues;
  submitLabel: string;
  /** The project's treasury per token, to pay token rewards from. */
  treasury: TreasuryAsset[];
  /** The decimals of `defaults.asset` (the project's rewards token, or the pool's own), null for none. */
  defaultsDecimals?: number | null;
  /** Editing: what the reward pays cannot change. */
  kindFixed?: boolean;
  /** Editing: why the reward can be raised but not lowered now, or null. */
  note?: string | null;
  /** The pool's own gate as saved, and the networks a holding rule may name. */
  gate?: { defaults: GateValues; networks: { id: number; name: string }[] } | null;
}) {
  const actionData = useActionData<RewardActionData>();
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
      <PageHeader title={title} description={`A reward for ${campaign.name}, in XP or tokens, paid when the campaign ends.`} />
      {closed ? (
        <RewardsClosed backTo={show} />
      ) : (
        <RewardPoolForm
          defaults={actionData?.values ?? defaults}
          errors={actionData?.errors ?? {}}
          pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
          submitLabel={submitLabel}
          cancelTo={show}
          treasury={treasury}
          defaultsDecimals={actionData?.values && actionData.values.asset !== defaults.asset ? null : defaultsDecimals}
          kindFixed={kindFixed}
          note={note}
          fundTo={route("projects.rewards", { project: project.slug })}
          gate={gate && { defaults: actionData?.gate ?? gate.defaults, networks: gate.networks }}
        />
      )}
    </>
  );
}
