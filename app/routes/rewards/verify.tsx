import { Clock, Lock } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/verify";
import { LocalTime } from "~/components/campaigns/local-time";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { PageHeader } from "~/components/page-header";
import { Badge } from "~/components/ui/badge";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { useRootData } from "~/root";
import { servicesContext } from "~/services/services.server";
import { poolHeadline } from "~/modules/rewards/pool-words";
import { getSession } from "~/modules/auth/session.server";
import { raffleProofOf } from "~/modules/rewards/raffle-proofs.server";
import { withDecimals } from "~/modules/rewards/pool-decimals.server";
import { CheckCard, EntrantsCard, Fact, Hash, OpenCard, Pending, Step, TerminalCheck, WinnersCard, chainName, n } from "~/components/rewards/raffle-verify";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Verify this draw", ({ campaign }) => ({
    page: `Verify the ${campaign.name} raffle`,
    description: `Check the ${campaign.name} raffle's draw yourself: its entrants, the secret committed before it and the block that drew it.`,
  }));
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { database, chains } = context.get(servicesContext);
  const db = database.db;
  const viewerId = (await getSession(context))?.user.id ?? null;
  const view = await raffleProofOf({ db, poolId: params.pool, viewerId });
  if (!view) throw data("Not found", { status: 404 });
  const [pool] = withDecimals(chains, [view.pool]);
  return { ...view, pool: pool! };
}

export default function VerifyDraw({ loaderData }: Route.ComponentProps) {
  const { status, proof, pool, campaign, project, yours } = loaderData;
  const root = useRootData();
  const drawn = proof?.secret != null;
  const campaignTo = route("campaigns.show", { project: project.slug, campaign: campaign.slug });
  return (
    <>
      <ProjectCrumb project={project} trail={[{ label: campaign.name, to: campaignTo }]} />
      <PageHeader
        title="Verify this draw"
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            {drawn ? <Badge variant="success">Drawn</Badge> : <Badge variant="warning">{status === "open" ? "Not drawn yet" : "Waiting for its block"}</Badge>}
            <span>
              {pool.winnersWanted === 1 ? "1 winner" : `${n(pool.winnersWanted)} winners`},{" "}
              {poolHeadline({ ...pool, distribution: "raffle", winners: pool.winnersWanted, amount: BigInt(pool.amount), rankAmounts: null })}, among the
              members who completed every task of{" "}
              <Link to={campaignTo} className="font-medium text-foreground underline underline-offset-4">
                {campaign.name}
              </Link>{" "}
              by{" "}
              <Link to={route("projects.show", { project: project.slug })} className="font-medium text-foreground underline underline-offset-4">
                {project.name}
              </Link>
              .
            </span>
          </span>
        }
      />
      <div className="grid gap-6">
        {proof ? <CheckCard proof={proof} drawn={drawn} /> : <OpenCard endsAt={campaign.endsAt} chainId={pool.chainId} />}
        <section aria-labelledby="steps-heading" className="grid gap-4">
          <h2 id="steps-heading" className="text-lg font-semibold">
            The draw, step by step
          </h2>
          <div className="grid gap-4 lg:grid-cols-2">
            <Step index={1} title="Commitment" description="SHA-256 of a secret the server picked when the reward was created, published from then on.">
              <Fact label="Commitment">
                <Hash value={pool.commitment} />
              </Fact>
              <Fact label="Secret">{proof?.secret ? <Hash value={proof.secret} /> : <Pending icon={Lock}>Revealed after the draw.</Pending>}</Fact>
            </Step>
            <Step index={2} title="Block" description="A block mined after the entrants were frozen: nobody could know its hash in advance.">
              <Fact label="Chain">{pool.chainId !== null ? chainName(pool.chainId) : "Not named"}</Fact>
              <Fact label="Block number">
                {proof ? <span className="tabular-nums">{n(proof.blockNumber)}</span> : <Pending icon={Clock}>Named when the campaign ends.</Pending>}
              </Fact>
              <Fact label="Block hash">
                {proof?.blockHash ? (
                  <Hash value={proof.blockHash} />
                ) : (
                  <Pending icon={Clock}>{proof ? `Known once block ${n(proof.blockNumber)} is mined.` : "Known after the draw."}</Pending>
                )}
              </Fact>
              <Fact label="Seed">
                {proof?.seed ? (
                  <Hash value={proof.seed} />
                ) : (
                  <Pending icon={Clock}>keccak256(secret ‖ block hash ‖ entrant-list hash), after the draw.</Pending>
                )}
              </Fact>
            </Step>
          </div>
          {proof ? (
            <div className="grid gap-4 lg:grid-cols-2">
              <EntrantsCard proof={proof} yours={yours} />
              <WinnersCard proof={proof} drawn={drawn} yours={yours} />
            </div>
          ) : (
            <Step index={3} title="Entrants" description="The members who completed every task, in the order they finished.">
              <Pending icon={Clock}>
                Frozen when the campaign ends (<LocalTime value={campaign.endsAt} />
                ), with their count and their list&apos;s hash.
              </Pending>
            </Step>
          )}
        </section>
        <TerminalCheck poolId={pool.id} hasProof={proof !== null} appUrl={root?.appUrl ?? ""} chainId={pool.chainId} />
      </div>
    </>
  );
}

/** The checks, run in the browser against the chain: automatically once, then on "Check again". */
