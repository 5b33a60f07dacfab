import { data } from "react-router";
import type { Route } from "./+types/avatars";
import { servicesContext } from "~/services/services.server";
import { readAvatar } from "~/modules/users/avatar.server";

/** Uploaded avatars. Names are random and never reused, so they are cached for good. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { env } = context.get(servicesContext);
  const avatar = await readAvatar({ dataDir: env.DATA_DIR, name: params.file });
  if (!avatar) throw data("Not found", { status: 404 });
  return new Response(new Uint8Array(avatar.bytes), {
    headers: {
      "content-type": avatar.type,
      "cache-control": "public, max-age=31536000, immutable",
      "content-security-policy": "default-src 'none'; sandbox",
    },
  });
}
