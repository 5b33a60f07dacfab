import { data } from "react-router";
import type { Route } from "./+types/uploads";
import { servicesContext } from "~/services/services.server";
import { readImage } from "~/modules/users/avatar.server";

/** Images members submitted for tasks. Names are random and never reused. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { env } = context.get(servicesContext);
  const image = await readImage({ dataDir: env.DATA_DIR, folder: "uploads", name: params.file });
  if (!image) throw data("Not found", { status: 404 });
  return new Response(new Uint8Array(image.bytes), {
    headers: {
      "content-type": image.type,
      "cache-control": "private, max-age=31536000, immutable",
      "content-security-policy": "default-src 'none'; sandbox",
    },
  });
}
