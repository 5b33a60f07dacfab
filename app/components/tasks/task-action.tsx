import { ExternalLink } from "lucide-react";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, fieldProps } from "~/components/ui/field";
import { ImageInput } from "~/components/ui/image-input";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { FieldErrors } from "~/lib/result";
import type { ATTEMPT_KINDS } from "~/modules/tasks/attempt.schema";
import type { TaskBrief } from "~/modules/tasks/task-page";

/** A refused attempt as the task page's action answers it: one error (on the task's field or `form`), the quiz's wait, what was typed. */
type Failure = { errors: FieldErrors; retryAfterSeconds?: number; value?: string };

const seconds = (n: number) => (n < 120 ? `${n} seconds` : `${Math.ceil(n / 60)} minutes`);

/** The failure in words, with the quiz's wait when there is one. */
function failureText(failure: Failure) {
  const message = Object.values(failure.errors)[0] ?? "";
  const wait = failure.retryAfterSeconds;
  return wait && !/try again/i.test(message) ? `${message} Try again in ${seconds(wait)}.` : message;
}

/** A follow's proof for the team: a screenshot, a link, or both. */
function ProofFields({ error, value }: { error?: string; value?: string }) {
  return (
    <fieldset className="grid gap-4" aria-describedby={error ? "proof-error" : undefined}>
      <legend className="sr-only">Your proof</legend>
      <ImageInput id="image" label="Screenshot" hint="Of the account's page showing you follow it. PNG, JPEG, GIF or WebP, up to 2 MB." />
      <Field id="proofUrl" label="Or a link" hint="Optional with a screenshot: a link that shows the follow.">
        <Input id="proofUrl" name="proofUrl" type="url" placeholder="https://" defaultValue={value ?? ""} aria-invalid={error ? true : undefined} />
      </Field>
      {error && (
        <p id="proof-error" role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The task's one form: its intent follows the type (visit, answer, text, url, image, check or proof); an X follow may add proof. */
export function TaskAction({
  brief,
  failure,
  retry,
}: {
  brief: TaskBrief & { intent: (typeof ATTEMPT_KINDS)[keyof typeof ATTEMPT_KINDS] };
  failure?: Failure;
  retry: boolean;
}) {
  const navigation = useNavigation();
  const kind = brief.intent;
  const pendingFor = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const pending = pendingFor(kind);
  const [opened, setOpened] = useState(false);
  const error = failure ? failureText(failure) : undefined;
  const onForm = failure !== undefined && failure.errors.form !== undefined;
  const proofError = failure?.errors.proof !== undefined ? error : undefined;
  const fieldError = failure && !onForm ? error : undefined;
  const formError = onForm ? error : undefined;
  const submit = (label: string, variant: "brand" | "default" = "brand") => (
    <Button type="submit" variant={variant} pending={pending} className="w-fit">
      {retry ? "Try again" : label}
    </Button>
  );

  let body;
  switch (brief.type) {
    case "visit_link":
      body = (
        <div className="flex flex-wrap gap-2">
          <Button asChild variant={opened ? "outline" : "brand"}>
            <a href={brief.url} target="_blank" rel="noopener noreferrer" onClick={() => setOpened(true)}>
              Open the link <ExternalLink aria-hidden />
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </Button>
          {submit("Verify", opened ? "brand" : "default")}
        </div>
      );
      break;
    case "quiz":
      body = (
        <>
          <Field id="answer" label="Your answer" error={fieldError}>
            <Input {...fieldProps("answer", fieldError)} defaultValue={failure?.value ?? ""} maxLength={200} autoComplete="off" required />
          </Field>
          {submit("Submit answer")}
        </>
      );
      break;
    case "submit_text":
      body = (
        <>
          <Field id="text" label="Your text" hint={brief.minLength > 1 ? `At least ${brief.minLength} characters.` : undefined} error={fieldError}>
            <Textarea {...fieldProps("text", fieldError)} defaultValue={failure?.value ?? ""} rows={6} maxLength={5000} required />
          </Field>
          {submit("Submit")}
        </>
      );
      break;
    case "submit_url":
      body = (
        <>
          <Field id="url" label="Your link" error={fieldError}>
            <Input {...fieldProps("url", fieldError)} type="url" placeholder="https://" defaultValue={failure?.value ?? ""} required />
          </Field>
          {submit("Submit")}
        </>
      );
      break;
    case "submit_image":
      body = (
        <>
          <ImageInput id="image" label="Your image" hint="PNG, JPEG, GIF or WebP, up to 2 MB." error={fieldError} required />
          {submit("Upload and submit")}
        </>
      );
      break;
    case "tiktok_follow":
    case "instagram_follow":
      body = (
        <>
          <ProofFields error={proofError} value={failure?.value} />
          {submit("Send for review")}
        </>
      );
      break;
    case "contract_call":
      body = (
        <>
          <Field id="txHash" label="Transaction hash" hint="From your wallet's activity or the explorer: 0x and 64 hexadecimal characters." error={fieldError}>
            <Input
              {...fieldProps("txHash", fieldError)}
              defaultValue={failure?.value ?? ""}
              placeholder="0x…"
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-sm"
            />
          </Field>
          {submit("Check transaction")}
        </>
      );
      break;
    default:
      body = submit("Check");
  }

  return (
    <>
      <Form
        method="post"
        encType={brief.type === "submit_image" || kind === "proof" ? "multipart/form-data" : undefined}
        className="grid gap-4"
        noValidate
        aria-label="Do this task"
      >
        <input type="hidden" name="intent" value={kind} />
        {body}
        {formError && (
          <p role="alert" className="text-sm text-destructive">
            {formError}
          </p>
        )}
      </Form>
      {brief.type === "contract_call" && (
        <Form method="post" className="grid gap-2 rounded-lg border p-4" noValidate aria-label="Find my transaction">
          <input type="hidden" name="intent" value="find" />
          <p className="text-sm text-muted-foreground">
            No hash at hand? We look through {brief.network}&apos;s recent blocks for a matching transaction sent from one of your linked wallets.
          </p>
          <Button type="submit" variant="outline" pending={pendingFor("find")} className="w-fit">
            Find my transaction
          </Button>
        </Form>
      )}
      {brief.type === "x_follow" && brief.allowProof && (
        <details className="rounded-lg border p-4" open={failure !== undefined}>
          <summary className="cursor-pointer text-sm font-medium">X does not show your follow? Send proof for the team to review</summary>
          <Form method="post" encType="multipart/form-data" className="mt-4 grid gap-4" noValidate aria-label="Send proof of the follow">
            <input type="hidden" name="intent" value="proof" />
            <p className="text-sm text-muted-foreground">X is asked once more first; if it still does not show the follow, the team reviews your proof.</p>
            <ProofFields error={proofError} value={failure?.value} />
            <Button type="submit" variant="outline" pending={pendingFor("proof")} className="w-fit">
              Send for review
            </Button>
          </Form>
        </details>
      )}
    </>
  );
}
