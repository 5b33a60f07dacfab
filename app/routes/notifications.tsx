import { Bell, CheckCheck, ChevronRight, Settings } from "lucide-react";
import { data, Form, Link, redirect, useActionData, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/notifications";
import { LocalTime } from "~/components/campaigns/local-time";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { redirectWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";
import { servicesContext } from "~/services/services.server";
import { requireUser, safeRedirect } from "~/modules/auth/session.server";
import { listNotifications, markAllRead, markRead } from "~/modules/notifications/inbox.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Notifications") }];
}

const cursor = z.coerce.number().int().positive().optional().catch(undefined);

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const before = cursor.parse(new URL(request.url).searchParams.get("before") ?? undefined);
  const page = await listNotifications({ db: context.get(servicesContext).database.db, userId: user.id, before });
  return { ...page, paged: before !== undefined };
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.enum(["open", "read"]), id: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("all") }),
]);

/** Open (mark read and go to its thing), Mark read, Mark all read: each only on the member's own notifications. */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const form = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) return data({ error: "This page is out of date. Reload it and try again." }, { status: 400 });
  const db = services.database.db;
  if (form.data.intent === "all") {
    const marked = await markAllRead({ db, userId: user.id });
    return redirectWithToast(route("notifications"), marked === 1 ? "1 notification marked read" : `${marked} notifications marked read`, {
      appUrl: services.env.APP_URL,
    });
  }
  const marked = await markRead({ db, userId: user.id, id: form.data.id });
  if (!marked) throw data("Not found", { status: 404 });
  if (form.data.intent === "open") return redirect(safeRedirect(marked.link, route("notifications")));
  const back = new URL(request.url);
  return redirect(`${back.pathname}${back.search}`);
}

export default function Notifications({ loaderData: { items, next, paged } }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? navigation.formData : undefined;
  const unread = items.some((item) => !item.read);
  const refused = useActionData<typeof action>();
  return (
    <>
      <PageHeader
        title="Notifications"
        description="What happened to your tasks, rewards, airdrops, money and projects."
        actions={
          <div className="flex flex-wrap gap-2">
            {unread && (
              <Form method="post">
                <Button type="submit" name="intent" value="all" variant="outline" pending={busy?.get("intent") === "all"}>
                  <CheckCheck aria-hidden /> Mark all read
                </Button>
              </Form>
            )}
            <Button asChild variant="ghost">
              <Link to={route("settings.notifications")}>
                <Settings aria-hidden /> Settings
              </Link>
            </Button>
          </div>
        }
      />
      {refused && "error" in refused && (
        <p role="alert" className="mb-4 text-sm text-destructive">
          {refused.error}
        </p>
      )}
      {items.length === 0 ? (
        <EmptyState icon={Bell} title={paged ? "No older notifications" : "Nothing yet"}>
          {paged
            ? "You have seen them all."
            : "Reviews of your tasks, rewards you win, airdrops to claim, deposits and withdrawals, invitations and new campaigns of projects you follow show up here."}
        </EmptyState>
      ) : (
        <ul className="divide-y rounded-xl border" aria-label="Your notifications, newest first">
          {items.map((item) => (
            <li key={item.id} className={cn("flex items-start gap-3 p-3 sm:p-4", !item.read && "bg-brand/5")} data-notification={item.id}>
              <span className={cn("mt-2 size-2 shrink-0 rounded-full", item.read ? "bg-transparent" : "bg-brand")} aria-hidden />
              <Form method="post" className="min-w-0 flex-1">
                <input type="hidden" name="id" value={item.id} />
                <button
                  type="submit"
                  name="intent"
                  value="open"
                  className="group grid w-full gap-0.5 rounded-md text-left outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  <span className={cn("flex items-center gap-1 group-hover:underline", item.read ? "font-normal" : "font-semibold")}>
                    {item.title}
                    {!item.read && <span className="sr-only"> (unread)</span>}
                    <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                  </span>
                  {item.body && <span className="text-sm text-muted-foreground">{item.body}</span>}
                  <span className="text-xs text-muted-foreground">
                    <LocalTime value={item.createdAt} />
                  </span>
                </button>
              </Form>
              {!item.read && (
                <Form method="post">
                  <input type="hidden" name="id" value={item.id} />
                  <Button
                    type="submit"
                    name="intent"
                    value="read"
                    variant="ghost"
                    size="sm"
                    pending={busy?.get("intent") === "read" && busy.get("id") === String(item.id)}
                    aria-label={`Mark “${item.title}” read`}
                  >
                    Mark read
                  </Button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      {(next !== null || paged) && (
        <nav aria-label="Pages" className="flex items-center justify-between gap-2 pt-4">
          {paged ? (
            <Button asChild variant="outline" size="sm">
              <Link to={route("notifications")}>Newest</Link>
            </Button>
          ) : (
            <span />
          )}
          {next !== null && (
            <Button asChild variant="outline" size="sm">
              <Link to={`${route("notifications")}?before=${next}`} rel="next">
                Older
              </Link>
            </Button>
          )}
        </nav>
      )}
    </>
  );
}
