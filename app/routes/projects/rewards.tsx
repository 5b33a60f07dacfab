import { randomUUID } from "node:crypto";
import type { Route } from "./+types/rewards";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { PageHeader } from "~/components/page-header";
import { RewardsPaidIn, RewardsTokenStatus } from "~/components/projects/rewards-token";
import { FundProject, ProjectDeposit, ProjectPools, TreasuryCard } from "~/components/rewards/project-rewards";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { rewardActionRefused } from "~/modules/rewards/reward-limits.server";
import { servicesContext } from "~/services/services.server";
import { getSession, requireUser } from "~/modules/auth/session.server";
import { assetAmount, QUEST_DECIMALS } from "~/modules/ledger/assets";
import { rewardDecimals } from "~/modules/projects/set-reward-asset.server";
import { loadTokenScreen, readVault } from "~/modules/chain/token-reads.server";
import { redirectWithToast } from "~/lib/flash.server";
import { fundProject, fundSchemaFor, projectRewards } from "~/modules/rewards/treasury.server";
import { withDecimals } from "~/modules/rewards/pool-decimals.server";
import { projectPage } from "~/modules/tasks/quest-pages.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Rewards · ${loaderData.project.name}` : "Rewards") }];
}

/** A project's rewards: every pool and what it paid; for its owners and admins the treasury, the Fund form and the deposit reference. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const db = services.database.db;
  const user = (await getSession(context))?.user ?? null;
  const { project, role } = await projectPage({ db, slug: params.project, userId: user?.id ?? null });
  const found = await projectRewards({ db, projectId: project.id, viewerRole: role, viewerId: user?.id ?? null });
  // Every asset goes to the page with its decimals, in which its amounts are shown and the Fund form reads them.
  const rewards = {
    ...found,
    pools: withDecimals(services.chains, found.pools),
    treasury: withDecimals(services.chains, found.treasury),
    own: withDecimals(services.chains, found.own),
  };
  const chain = rewards.manages ? await loadTokenScreen(services, request, readVault) : null;
  return {
    project: { slug: project.slug, name: project.name, rewardAsset: project.rewardAsset },
    ...rewards,
    chain: chain && chain.ok ? chain : null,
    requestKey: randomUUID(),
  };
}

/** Fund: an owner or admin sends tokens from their available balance to the project's treasury. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const db = services.database.db;
  const { project } = await projectPage({ db, slug: params.project, userId: user.id });
  const flooded = await rewardActionRefused({ db, userId: user.id });
  if (flooded) return formFailure(flooded);
  const formData = await request.formData();
  // The amount is read in the chosen token's own decimals (USDC's 6); an unknown asset fails on its field.
  const decimals = rewardDecimals(services.chains, String(formData.get("asset") ?? "").trim()) ?? QUEST_DECIMALS;
  const form = parseForm(fundSchemaFor(decimals), formData);
  if (!form.ok) return formFailure(form);
  const funded = await fundProject({ db, projectId: project.id, actorId: user.id, input: form.data, decimals });
  if (!funded.ok) return formFailure(funded);
  const message = `Sent ${assetAmount(form.data.amount, form.data.asset, decimals)} to the treasury of ${project.name}`;
  throw redirectWithToast(route("projects.rewards", { project: project.slug }), message, { appUrl: services.env.APP_URL });
}

export default function ProjectRewards({ loaderData, actionData }: Route.ComponentProps) {
  const { project, pools, manages, treasury, own, depositRef, chain, requestKey } = loaderData;
  const rewardAsset = project.rewardAsset;
  return (
    <>
      <ProjectCrumb project={project} trail={[]} />
      <PageHeader
        title="Rewards"
        description={
          manages
            ? `What ${project.name}'s campaigns pay, and the treasury their token rewards are escrowed from.`
            : `What ${project.name}'s campaigns pay, and what they have paid.`
        }
      />
      <div className="grid min-w-0 gap-6">
        {manages ? (
          <RewardsTokenStatus
            projectSlug={project.slug}
            asset={rewardAsset}
            treasuryHolds={treasury.find((t) => t.asset === rewardAsset)?.balance ?? 0n}
            ownHolds={own.find((b) => b.asset === rewardAsset)?.available ?? 0n}
          />
        ) : (
          <RewardsPaidIn asset={rewardAsset} />
        )}
        {manages && (
          <div className="grid min-w-0 gap-4 lg:grid-cols-3">
            <TreasuryCard treasury={treasury} />
            <FundProject own={own} requestKey={requestKey} errors={actionData?.errors ?? {}} />
            {depositRef && <ProjectDeposit chain={chain} depositRef={depositRef} projectName={project.name} />}
          </div>
        )}
        <ProjectPools projectSlug={project.slug} pools={pools} manages={manages} />
      </div>
    </>
  );
}
