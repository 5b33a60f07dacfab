import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Input } from "~/components/ui/input";
import { WEBHOOK_EVENT_TYPES } from "~/modules/events/event-types";

/** The pieces both webhook pages share: the endpoint form, the secret shown once, the state, the help. */

export const webhooksPath = (projectSlug: string) => `/projects/${encodeURIComponent(projectSlug)}/webhooks`;
export const endpointPath = (projectSlug: string, endpointId: string) => `${webhooksPath(projectSlug)}/${encodeURIComponent(endpointId)}`;

/** Whether the form with this `intent` (and row) is being sent. */
export function usePendingIntent(intent: string, id?: string) {
  const navigation = useNavigation();
  const form = navigation.formData;
  return navigation.state !== "idle" && form?.get("intent") === intent && (id === undefined || form?.get("id") === id);
}

/** A one-button form posting `intent` (and `id`), pending while it is sent. */
export function IntentButton({
  intent,
  id,
  children,
  variant = "outline",
  label,
}: {
  intent: string;
  id?: string;
  children: ReactNode;
  /** The button's name for screen readers, when its text alone is ambiguous (one per row). */
  label?: string;
  variant?: "outline" | "default" | "destructive" | "secondary";
}) {
  const pending = usePendingIntent(intent, id);
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value={intent} />
      {id && <input type="hidden" name="id" value={id} />}
      <Button type="submit" size="sm" variant={variant} pending={pending} aria-label={label}>
        {children}
      </Button>
    </Form>
  );
}

export type EndpointFormValues = { url: string; description: string; eventTypes: string[] };

export function EndpointForm({
  intent,
  submitLabel,
  values,
  errors = {},
}: {
  intent: string;
  submitLabel: string;
  values: EndpointFormValues;
  errors?: Record<string, string>;
}) {
  const pending = usePendingIntent(intent);
  return (
    <Form method="post" className="grid gap-4">
      <input type="hidden" name="intent" value={intent} />
      <FormError message={errors.form} />
      <Field id="url" label="Endpoint URL" hint="Where we POST each event, signed. Use https:// in production." error={errors.url}>
        <Input
          {...fieldProps("url", errors.url)}
          type="url"
          inputMode="url"
          required
          defaultValue={values.url}
          placeholder="https://example.com/webhooks/questline"
        />
      </Field>
      <Field id="description" label="Description (optional)" error={errors.description}>
        <Input {...fieldProps("description", errors.description)} maxLength={300} defaultValue={values.description} placeholder="Our Discord bot" />
      </Field>
      <fieldset className="grid gap-2" aria-describedby={errors.eventTypes ? "eventTypes-error" : undefined}>
        <legend className="mb-2 text-sm font-medium">Events to send</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {Object.entries(WEBHOOK_EVENT_TYPES).map(([type, words]) => (
            <label key={type} className="flex items-start gap-3 rounded-lg border p-3 text-sm has-[:checked]:border-primary">
              <input
                type="checkbox"
                name="eventTypes"
                value={type}
                defaultChecked={values.eventTypes.includes(type)}
                className="mt-0.5 size-4 shrink-0 accent-lime-600"
              />
              <span className="grid gap-0.5">
                <code className="text-xs font-semibold">{type}</code>
                <span className="text-muted-foreground">{words}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.eventTypes && (
          <p id="eventTypes-error" role="alert" className="text-sm text-destructive">
            {errors.eventTypes}
          </p>
        )}
      </fieldset>
      <div>
        <Button type="submit" pending={pending}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}

/** A secret, shown this once. */
export function SecretReveal({ secret, children }: { secret: string; children: ReactNode }) {
  return (
    <Card className="border-amber-500/50" role="status">
      <CardHeader>
        <CardTitle>Copy the signing secret now</CardTitle>
        <CardDescription>{children} It is not shown again.</CardDescription>
      </CardHeader>
      <CardContent>
        <label className="sr-only" htmlFor="signing-secret">
          Signing secret
        </label>
        <Input id="signing-secret" readOnly value={secret} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
      </CardContent>
    </Card>
  );
}

export type EndpointState = { enabled: boolean; disabledReason: string | null; failingSince: string | null };

export function EndpointStateBadge({ endpoint }: { endpoint: EndpointState }) {
  if (!endpoint.enabled) return <Badge variant="destructive">Disabled</Badge>;
  if (endpoint.failingSince)
    return <Badge variant="warning">Failing since {new Date(endpoint.failingSince).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })}</Badge>;
  return <Badge variant="success">Enabled</Badge>;
}

const SNIPPET = `import { Webhook } from "standardwebhooks";

const wh = new Webhook(process.env.QUESTLINE_WEBHOOK_SECRET); // whsec_…

// In your HTTP handler, with the raw body as received (not re-serialized):
const event = wh.verify(rawBody, {
  "webhook-id": req.headers["webhook-id"],
  "webhook-timestamp": req.headers["webhook-timestamp"],
  "webhook-signature": req.headers["webhook-signature"],
}); // throws when the signature or the timestamp is wrong

if (await alreadyHandled(req.headers["webhook-id"])) return res.status(200).end();
// … handle event.type / event.data, then answer 2xx within 10 s`;

/** How to check our signatures, and what we promise about delivery. */
export function SignatureHelp({ localTrial }: { localTrial: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Verifying and receiving</CardTitle>
        <CardDescription>
          Each event is a POST with a JSON body <code>{"{ type, timestamp, data }"}</code>, signed as the Standard Webhooks specification says: the headers{" "}
          <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> (HMAC-SHA256 with your endpoint&apos;s secret).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs">{SNIPPET}</pre>
        <ul className="grid list-disc gap-1 pl-5 text-muted-foreground">
          <li>
            Delivery is at least once: the same event can arrive twice (a retry, a redelivery). Its <code>webhook-id</code> stays the same: skip ids you have
            handled.
          </li>
          <li>
            Answer with a 2xx status within 10 seconds. Anything else is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then marked failed.
          </li>
          <li>An endpoint whose every delivery has failed for 24 hours is disabled, and the team is told. Enable it again here, then redeliver what failed.</li>
          <li>After you rotate the secret, the previous one keeps signing alongside the new one for 24 hours: the signature header then carries both.</li>
          <li>
            Only public addresses are reached: URLs on private, loopback or link-local networks are refused, when saved and again at each send.
            {localTrial && " In this local trial, addresses on this machine (127.0.0.1, localhost) are allowed so you can try it."}
          </li>
        </ul>
      </CardContent>
    </Card>
  );
}
