import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { servicesContext } from "~/services/services.server";
import { signOut } from "~/modules/auth/sign-in.server";

export async function action({ request, context }: Route.ActionArgs) {
  const headers = await signOut(context.get(servicesContext), request);
  throw redirect("/", { headers });
}

export function loader() {
  throw redirect("/");
}
