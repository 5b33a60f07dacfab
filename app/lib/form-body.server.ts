import { data } from "react-router";
import { hasControlCharacter } from "./form-text";
import { isSignedReceiverPath } from "./signed-receivers";

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * The one gate for bodies sent to the app's pages (not `/api/*` nor the local trial's signed
 * receivers, whose endpoints read JSON themselves): a page's action takes a form, and only a form
 * it can read.
 * - another body (JSON, text…) is refused with 415;
 * - a form that cannot be read (broken multipart, a cut-off body) with 400;
 * - a form with a control character in a field (NUL and the like, which the database cannot
 *   store) with 400, before any action runs. Forms parsed by `parseForm` name the field too.
 */
export async function checkFormBody(request: Request) {
  if (request.method === "GET" || request.method === "HEAD") return;
  const path = new URL(request.url).pathname;
  if (path.startsWith("/api/") || isSignedReceiverPath(path)) return;
  if (!FORM_TYPES.test(request.headers.get("content-type") ?? "")) {
    throw data("This page takes a form. Send it as application/x-www-form-urlencoded or multipart/form-data.", { status: 415 });
  }
  let form: FormData;
  try {
    form = await request.clone().formData();
  } catch {
    throw data("The form could not be read. Reload the page and send it again.", { status: 400 });
  }
  for (const [, value] of form) {
    if (typeof value === "string" && hasControlCharacter(value)) {
      throw data("A field holds an invisible control character that cannot be saved. Remove it and send the form again.", { status: 400 });
    }
  }
}
