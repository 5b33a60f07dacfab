import { CircleCheck, TriangleAlert } from "lucide-react";
import { BackToProject } from "~/components/projects/back-to-project";
import { takeBotCall } from "~/modules/community/bot-calls.server";
import { data, Form, useActionData, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/telegram";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Input } from "~/components/ui/input";
import { dataWithToast, redirectWithToast } from "~/lib/flash.server";
import { pageTitle } from "~/lib/meta";
import { failure, formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { requireUser } from "~/modules/auth/session.server";
import { projectTelegramOf, recheckTelegramBot, removeTelegramBot, saveTelegramBot } from "~/modules/community/telegram-bot.server";
import { authorize } from "~/modules/projects/permissions.server";
import { projectBySlug } from "~/modules/projects/projects.server";
import { servicesContext } from "~/services/services.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, loaderData ? `Telegram - ${loaderData.project.name}` : "Telegram") }];
}

async function projectFor(context: Route.LoaderArgs["context"], request: Request, slug: string) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const project = await projectBySlug({ db: services.database.db, slug });
  if (!project) throw data("Not found", { status: 404 });
  await authorize({ db: services.database.db, projectId: project.id, userId: user.id, action: "community.manage" });
  return { services, user, project };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { services, project } = await projectFor(context, request, params.project);
  // Never the token: the bot's name and what the last check found.
  const bot = await projectTelegramOf({ db: services.database.db, projectId: project.id });
  return { project: { slug: project.slug, name: project.name }, bot };
}

const saveSchema = z.object({ intent: z.literal("save"), token: z.string().max(200), chat: z.string().max(200) });
const intentSchema = z.union([saveSchema, z.object({ intent: z.enum(["check", "remove"]) })]);

export async function action({ request, context, params }: Route.ActionArgs) {
  const { services, user, project } = await projectFor(context, request, params.project);
  const { db } = services.database;
  const deps = { db, social: services.env.social, projectId: project.id, logger: services.logger };
  const form = intentSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) return formFailure(failure("conflict", "This page is out of date. Reload it and try again."));
  const page = route("projects.telegram", { project });
  const appUrl = services.env.APP_URL;
  if (form.data.intent !== "remove") {
    const call = await takeBotCall({ db, projectId: project.id });
    if (!call.ok) return formFailure(call);
  }
  switch (form.data.intent) {
    case "save": {
      const saved = await saveTelegramBot({ ...deps, userId: user.id, token: form.data.token, chat: form.data.chat });
      if (!saved.ok) return formFailure(saved, { values: { chat: form.data.chat } });
      return redirectWithToast(page, saved.problems.length ? `@${saved.botUsername} saved: see what it still needs` : `@${saved.botUsername} is ready`, {
        appUrl,
      });
    }
    case "check": {
      const checked = await recheckTelegramBot(deps);
      if (!checked.ok) return formFailure(checked);
      return dataWithToast({ errors: {} }, checked.problems.length ? "The bot still needs something: see below" : "The bot can read the chat", { appUrl });
    }
    case "remove": {
      const removed = await removeTelegramBot({ db, projectId: project.id });
      if (!removed.ok) return formFailure(removed);
      return redirectWithToast(page, "Telegram bot removed", { appUrl });
    }
  }
}

export default function ProjectTelegram({ loaderData }: Route.ComponentProps) {
  const { project, bot } = loaderData;
  const actionData = useActionData<{ errors: Record<string, string>; values?: { chat: string } }>();
  const errors = actionData?.errors ?? {};
  const navigation = useNavigation();
  const pendingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;

  return (
    <>
      <PageHeader
        title="Telegram"
        description={`${project.name}'s Telegram bot: it checks that members joined your group or channel.`}
        actions={<BackToProject project={project} />}
      />
      <div className="grid max-w-2xl gap-6">
        <FormError message={errors.form} />
        {bot && (
          <Card>
            <CardHeader>
              <CardTitle>@{bot.botUsername}</CardTitle>
              <CardDescription>
                Watches {bot.chatTitle || bot.chatId}
                {bot.chatTitle && bot.chatTitle !== bot.chatId ? ` (${bot.chatId})` : ""}. Its token is saved encrypted and is never shown again.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              {bot.problems.length === 0 ? (
                <p className="flex items-start gap-2 text-sm">
                  <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-lime-600" /> @{bot.botUsername} is an administrator of{" "}
                  {bot.chatTitle || bot.chatId}: Telegram tasks there are checked for your members.
                </p>
              ) : (
                <ul role="alert" className="grid gap-2 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm">
                  {bot.problems.map((problem) => (
                    <li key={problem} className="flex items-start gap-2">
                      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" /> {problem}
                    </li>
                  ))}
                </ul>
              )}
              {bot.checkedAt && (
                <p className="text-xs text-muted-foreground">
                  Last checked {new Date(bot.checkedAt).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })}
                </p>
              )}
              <Form method="post" className="flex flex-wrap gap-2">
                <Button type="submit" name="intent" value="check" variant="outline" pending={pendingIntent === "check"}>
                  Check again
                </Button>
                <Button type="submit" name="intent" value="remove" variant="ghost" pending={pendingIntent === "remove"}>
                  Remove
                </Button>
              </Form>
            </CardContent>
          </Card>
        )}
        <Card>
          <CardHeader>
            <CardTitle>{bot ? "Replace the bot or the chat" : "Add your bot"}</CardTitle>
            <CardDescription>
              Create a bot with @BotFather, add it to your group or channel as an administrator, then paste its token here. Telegram shows who is in a chat only
              to its administrators.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" className="grid gap-4" noValidate>
              <input type="hidden" name="intent" value="save" />
              <Field id="token" label="Bot token" hint="From @BotFather: digits, a colon, then about 35 characters." error={errors.token}>
                <Input
                  {...fieldProps("token", errors.token)}
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="123456789:AA…"
                  maxLength={200}
                />
              </Field>
              <Field id="chat" label="Group or channel" hint="@name, its t.me/name link, or its id (-100…)." error={errors.chat}>
                <Input
                  {...fieldProps("chat", errors.chat)}
                  defaultValue={actionData?.values?.chat ?? bot?.chatId ?? ""}
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  placeholder="@yourgroup"
                  maxLength={200}
                />
              </Field>
              <div>
                <Button type="submit" pending={pendingIntent === "save"}>
                  Save and check
                </Button>
              </div>
            </Form>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
