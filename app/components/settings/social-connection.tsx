import { CircleAlert, RefreshCw, ShieldCheck, Unlink } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { LocalTime } from "~/components/campaigns/local-time";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { UserAvatar } from "~/components/ui/avatar";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";
import { PROVIDER_LABELS, PROVIDER_READS, RELINK_WAIT_DAYS, type SocialAccountStatus, type SocialProvider } from "~/modules/social/providers";

/** A provider's mark: its initial on a tinted square (the product shows no third-party logos). */
export function ProviderMark({ provider, className }: { provider: SocialProvider; className?: string }) {
  const tints: Record<SocialProvider, string> = {
    x: "bg-foreground text-background",
    youtube: "bg-red-600 text-white",
    tiktok: "bg-cyan-600 text-white",
    instagram: "bg-fuchsia-600 text-white",
    discord: "bg-indigo-600 text-white",
    telegram: "bg-sky-600 text-white",
  };
  return (
    <span aria-hidden className={cn("inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-sm font-bold", tints[provider], className)}>
      {PROVIDER_LABELS[provider].slice(0, provider === "youtube" ? 2 : 1)}
    </span>
  );
}

/** Whether the connection's token works, in a badge. */
export function ConnectionStatus({ status }: { status: SocialAccountStatus }) {
  return status === "active" ? <Badge variant="success">Working</Badge> : <Badge variant="warning">Needs reconnecting</Badge>;
}

export type ConnectedAccount = {
  handle: string;
  displayName: string;
  avatarUrl: string | null;
  connectedAt: Date | string;
  method: "oauth" | "code" | "widget";
  status: SocialAccountStatus;
  statusReason: string | null;
  checkedAt: Date | string | null;
  missingScopes: string[];
};

const handleOf = (provider: SocialProvider, handle: string) => (handle && provider !== "youtube" ? `@${handle}` : handle);

/** The connected account: who it is, since when, whether its token works and has what the tasks need. */
export function ConnectedAccountCard({ provider, account }: { provider: SocialProvider; account: ConnectedAccount }) {
  const label = PROVIDER_LABELS[provider];
  return (
    // min-w-0 and one shrinkable column: a long handle is cut short instead of widening the card on a phone.
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <div className="flex items-center gap-3">
        <UserAvatar name={account.displayName || account.handle} image={account.avatarUrl} className="size-12 text-sm" />
        <div className="min-w-0">
          <p className="truncate font-medium" data-testid="connected-handle">
            {handleOf(provider, account.handle) || account.displayName}
          </p>
          {account.displayName && account.handle && <p className="truncate text-sm text-muted-foreground">{account.displayName}</p>}
        </div>
        <div className="ml-auto">
          <ConnectionStatus status={account.status} />
        </div>
      </div>
      <dl className="grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="text-muted-foreground">Connected</dt>
        <dd>
          <LocalTime value={account.connectedAt} />
          {account.method === "code" && " · proven by a post carrying your code"}
        </dd>
        <dt className="text-muted-foreground">Connection</dt>
        <dd>
          {account.status === "active" ? (
            account.method === "code" ? (
              "No sign-in with X: tasks are checked with Questline's own access to public posts."
            ) : account.checkedAt ? (
              <>
                Working, last confirmed <LocalTime value={account.checkedAt} />
              </>
            ) : (
              "Working"
            )
          ) : (
            <span className="text-amber-700 dark:text-amber-400">
              {account.statusReason ?? `${label} no longer accepts it.`} Reconnect to go on checking tasks.
            </span>
          )}
        </dd>
        <dt className="text-muted-foreground">Permissions</dt>
        <dd>
          {account.missingScopes.length === 0 ? (
            account.method === "code" ? (
              "None asked"
            ) : (
              `Everything the tasks need: ${PROVIDER_READS[provider]}`
            )
          ) : (
            <span className="text-amber-700 dark:text-amber-400">
              Not allowed: {account.missingScopes.join(", ")}. Some tasks cannot be checked: reconnect and allow every permission asked.
            </span>
          )}
        </dd>
      </dl>
    </div>
  );
}

/** Connect, Reconnect and Disconnect, each a form the page's action answers. */
export function ConnectionActions({ provider, connected }: { provider: SocialProvider; connected: boolean }) {
  const navigation = useNavigation();
  const pending = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const label = PROVIDER_LABELS[provider];
  return (
    <div className="flex flex-wrap gap-2">
      <Form method="post">
        <input type="hidden" name="intent" value="connect" />
        <Button type="submit" variant={connected ? "outline" : "brand"} pending={pending("connect")}>
          {connected ? (
            <>
              <RefreshCw aria-hidden /> Reconnect
            </>
          ) : (
            `Connect ${label}`
          )}
        </Button>
      </Form>
      {connected && (
        <Form method="post">
          <input type="hidden" name="intent" value="disconnect" />
          <Button type="submit" variant="outline" pending={pending("disconnect")}>
            <Unlink aria-hidden /> Disconnect
          </Button>
        </Form>
      )}
    </div>
  );
}

/** Why one account belongs to one member: said on every connection page. */
export function SybilNote({ provider }: { provider: SocialProvider }) {
  const label = PROVIDER_LABELS[provider];
  return (
    <p className="flex gap-2 text-sm text-muted-foreground">
      <ShieldCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>
        One {label} account belongs to one member: an account connected here cannot be connected by anyone else, and once disconnected it can join another
        member only after {RELINK_WAIT_DAYS} days. This keeps one person from collecting the same rewards twice.
      </span>
    </p>
  );
}

/** Shown where a task or page needs a provider the server has no client for. */
export function NotSetUp({ provider }: { provider: SocialProvider }) {
  return (
    <p className="flex gap-2 rounded-lg border border-dashed bg-muted/40 p-4 text-sm text-muted-foreground">
      <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
      {PROVIDER_LABELS[provider]} is not set up on this server, so accounts cannot be connected yet.
    </p>
  );
}

export function VerifyXLink() {
  return (
    <p className="text-sm text-muted-foreground">
      Rather not sign in with X?{" "}
      <Link className="font-medium text-foreground underline underline-offset-4" to={route("tasks.verifyX")}>
        Verify your X account with a post
      </Link>
      .
    </p>
  );
}
