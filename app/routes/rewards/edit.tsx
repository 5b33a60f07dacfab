import type { Route } from "./+types/edit";
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
import { parseRewardForm, rewardPoolValues } from "~/modules/rewards/reward-form";
import { rewardPage } from "~/modules/rewards/reward-pages.server";
import { raffleChainIdOf } from "~/modules/rewards/draw-chains.server";
import { poolsKeptNote } from "~/modules/rewards/promises.server";
import { deleteRewardPool, poolTerms, updateRewardPool } from "~/modules/rewards/reward-pools.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Edit reward") }];
}

async function page({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const db = services.database.db;
  const found = await rewardPage({ db, projectSlug: params.project, campaignSlug: params.campaign, poolId: params.reward, userId: user.id });
  // Every asset goes to the page with its decimals, the form's amounts are read and shown in them.
  const decimalsOf = (asset: string | null) => rewardDecimals(services.chains, asset);
  const treasury = found.treasury.map((t) => ({ ...t, decimals: decimalsOf(t.asset) ?? QUEST_DECIMALS }));
  return { db, services, user, ...found, pool: found.pool!, treasury, decimalsOf };
}

export async function loader(args: Route.LoaderArgs) {
  const { db, services, project, campaign, pool, ended, treasury, decimalsOf } = await page(args);
  const decimals = decimalsOf(pool.asset);
  return {
    project: { slug: project.slug, name: project.name },
    campaign: { slug: campaign.slug, name: campaign.name },
    values: rewardPoolValues(poolTerms(pool), decimals ?? undefined),
    decimals,
    closed: ended || pool.status !== "open",
    treasury,
    kept: pool.kind === "token" && !ended ? await poolsKeptNote(db, campaign) : null,
    gate: { defaults: gateValues(pool.gate), networks: gateNetworks(services.chains) },
  };
}

export async function action(args: Route.ActionArgs) {
  const { db, services, user, project, campaign, pool, decimalsOf } = await page(args);
  const flooded = await rewardActionRefused({ db, userId: user.id });
  if (flooded) return formFailure(flooded);
  const formData = await args.request.formData();
  const back = (message: string) =>
    redirectWithToast(route("campaigns.show", { project: project.slug, campaign: campaign.slug }), message, { appUrl: services.env.APP_URL });
  if (formData.get("intent") === "delete") {
    const deleted = await deleteRewardPool({ db, campaignId: campaign.id, poolId: pool.id, actorId: user.id });
    if (!deleted.ok) return formFailure(deleted);
    throw back("Reward deleted");
  }
  const { values, form: fields } = parseRewardForm(formData, decimalsOf);
  const gate = await parseGateForm(formData, services.chains);
  const form = withGate(fields, gate.gate);
  if (!form.ok) return formFailure(form, { values, gate: gate.values });
  const saved = await updateRewardPool({
    db,
    campaignId: campaign.id,
    poolId: pool.id,
    actorId: user.id,
    input: form.data,
    gate: form.gate,
    decimals: decimalsOf(form.data.asset) ?? undefined,
    raffleChainId: raffleChainIdOf(services.chains),
  });
  if (!saved.ok) return formFailure(saved, { values, gate: gate.values });
  throw back("Reward saved");
}

export default function EditReward({ loaderData: { project, campaign, values, decimals, closed, treasury, kept, gate } }: Route.ComponentProps) {
  return (
    <RewardPoolScreen
      title="Edit reward"
      project={project}
      campaign={campaign}
      closed={closed}
      defaults={values}
      submitLabel="Save reward"
      treasury={treasury}
      defaultsDecimals={decimals}
      note={kept}
      gate={gate}
      kindFixed
    />
  );
}
