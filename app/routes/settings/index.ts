import { redirect } from "react-router";
import { route } from "~/lib/routes";

export function loader() {
  throw redirect(route("settings.profile"));
}
