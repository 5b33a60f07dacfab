import type { Route } from "./+types/new";
import { RewardPoolScreen } from "~/components/campaigns/reward-pool-screen";
import { pageTitle } from "~/lib/meta";
import { redirectWithToast } from "~/lib/flash.server";
import { formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { rewardActionRefused } from "~/modules/rewards/reward-limits.server";
import { servicesContext } from "~/services/services.server";
import { gateNetworks, parseGateForm, withGate } from "~/modules/trust/gate-form.server";
import { gateValues } from "~/modules/trust/gate-values";
import { QUEST_DECIMALS } from "~/modules/ledger/assets";
import { rewardDecimals } from "~/modules/projects/set-reward-asset.server";
import { requireUser } from "~/modules/auth/session.server";
import { parseRewardForm } from "~/modules/rewards/reward-form";
import { rewardPage } from "~/modules/rewards/reward-pages.server";
import { raffleChainIdOf } from "~/modules/rewards/draw-chains.server";
import { createRewardPool } from "~/modules/rewards/reward-pools.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Create reward") }];
}

async function page({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const db = services.database.db;
  const found = await rewardPage({ db, projectSlug: params.project, campaignSlug: params.campaign, userId: user.id });
  // Every asset goes to the page with its decimals, the form's amounts are read and shown in them.
  const decimalsOf = (asset: string | null) => rewardDecimals(services.chains, asset);
  const treasury = found.treasury.map((t) => ({ ...t, decimals: decimalsOf(t.asset) ?? QUEST_DECIMALS }));
  return { db, services, user, ...found, treasury, decimalsOf };
}

export async function loader(args: Route.LoaderArgs) {
  const { services, project, campaign, ended, treasury, decimalsOf } = await page(args);
  return {
    gate: { defaults: gateValues(null), networks: gateNetworks(services.chains) },
    project: { slug: project.slug, name: project.name },
    campaign: { slug: campaign.slug, name: campaign.name },
    ended,
    treasury,
    // The project's rewards token, preselected for a token reward (its settings say which).
    rewardAsset: project.rewardAsset,
    rewardAssetDecimals: decimalsOf(project.rewardAsset),
  };
}

export async function action(args: Route.ActionArgs) {
  const { db, services, user, project, campaign, decimalsOf } = await page(args);
  const flooded = await rewardActionRefused({ db, userId: user.id });
  if (flooded) return formFailure(flooded);
  const formData = await args.request.formData();
  const { values, form: fields } = parseRewardForm(formData, decimalsOf);
  const gate = await parseGateForm(formData, services.chains);
  const form = withGate(fields, gate.gate);
  if (!form.ok) return formFailure(form, { values, gate: gate.values });
  const saved = await createRewardPool({
    db,
    campaignId: campaign.id,
    actorId: user.id,
    input: form.data,
    gate: form.gate,
    decimals: decimalsOf(form.data.asset) ?? undefined,
    raffleChainId: raffleChainIdOf(services.chains),
  });
  if (!saved.ok) return formFailure(saved, { values, gate: gate.values });
  throw redirectWithToast(route("campaigns.show", { project: project.slug, campaign: campaign.slug }), "Reward created", { appUrl: services.env.APP_URL });
}

export default function NewReward({ loaderData: { project, campaign, ended, treasury, rewardAsset, rewardAssetDecimals, gate } }: Route.ComponentProps) {
  return (
    <RewardPoolScreen
      title="Create reward"
      project={project}
      campaign={campaign}
      closed={ended}
      defaults={{ kind: "xp", asset: rewardAsset ?? "", distribution: "fcfs", winners: "", amount: "", total: "", rankAmounts: "" }}
      submitLabel="Create reward"
      treasury={treasury}
      defaultsDecimals={rewardAssetDecimals}
      gate={gate}
    />
  );
}
