import { z } from "zod";
import type { Route } from "./+types/trust";
import { MemberExclusions } from "~/components/trust/member-exclusions";
import { MemberTrustCard } from "~/components/trust/member-trust-card";
import { redirectWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { failure, formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { requireUser } from "~/modules/auth/session.server";
import { appealExclusion, memberTrustPage } from "~/modules/trust/appeals.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Trust") }];
}

/** The signed-in member's own score, reasons and exclusions: never another member's. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  return memberTrustPage({ db: context.get(servicesContext).database.db, userId: user.id });
}

const appealSchema = z.object({ exclusionId: z.string().min(1).max(100), message: z.string().max(5000) });

/** Appeals one of the member's own exclusions (appealExclusion refuses anyone else's, and floods). */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const form = appealSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) return formFailure(failure("conflict", "This page is out of date. Reload it and try again."));
  const result = await appealExclusion({ db: services.database.db, userId: user.id, exclusionId: form.data.exclusionId, message: form.data.message });
  if (!result.ok) return formFailure(result);
  return redirectWithToast(route("settings.trust"), "Appeal sent: the project's team will answer it here", { appUrl: services.env.APP_URL });
}

export default function TrustSettings({ loaderData: { trust, exclusions } }: Route.ComponentProps) {
  return (
    <div className="grid gap-6">
      <MemberTrustCard trust={trust} />
      <MemberExclusions exclusions={exclusions} />
    </div>
  );
}
