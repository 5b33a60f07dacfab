import { Inbox } from "lucide-react";
import { data } from "react-router";
import type { Route } from "./+types/dev.mail";
import { pageTitle } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { listDevMail } from "~/modules/mail/dev-inbox.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Dev inbox") }];
}

/** The development inbox: the mail the app would have sent. Absent in production and with SMTP. */
export async function loader({ context }: Route.LoaderArgs) {
  const { env, mailer, database } = context.get(servicesContext);
  if (env.isPublic || mailer.transport !== "dev-inbox") throw data("Not found", { status: 404 });
  const mails = await listDevMail({ db: database.db });
  return { mails: mails.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, createdAt: m.createdAt.toISOString() })) };
}

export default function DevMail({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto grid max-w-3xl gap-4 p-4 sm:p-6">
      <h1 className="text-2xl font-semibold">Dev inbox</h1>
      <p className="text-sm text-muted-foreground">Mail is kept here because no SMTP server is configured (SMTP_URL).</p>
      {loaderData.mails.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-xl border border-dashed p-10 text-center text-muted-foreground">
          <Inbox className="size-8" aria-hidden />
          <p>No mail yet.</p>
        </div>
      ) : (
        <ul className="grid gap-3">
          {loaderData.mails.map((mail) => (
            <li key={mail.id} className="rounded-xl border bg-card p-4">
              <p className="font-medium">{mail.subject}</p>
              <p className="text-xs text-muted-foreground">
                To {mail.to} · {new Date(mail.createdAt).toLocaleString("en")}
              </p>
              <pre className="mt-3 overflow-x-auto text-sm whitespace-pre-wrap">{mail.text}</pre>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
