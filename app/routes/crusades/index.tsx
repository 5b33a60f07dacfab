import type { Route } from "./+types/index";
import { CrusadeGrid } from "~/components/crusades/crusade-grid";
import { PageHeader } from "~/components/page-header";
import { publicMeta } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { listCrusades } from "~/modules/tasks/campaigns.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return publicMeta(args, { page: "Crusades", description: "Crusades: series of tasks done in order, each one opening the next." });
}

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  return { signedIn: userId !== null, crusades: await listCrusades({ db, userId }) };
}

export default function CrusadesIndex({ loaderData: { signedIn, crusades } }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Crusades" description="Series of tasks done in order: each unlocks the next, with a bonus at the end." />
      <CrusadeGrid crusades={crusades} signedIn={signedIn} emptyText="When projects publish crusades, they appear here." />
    </>
  );
}
