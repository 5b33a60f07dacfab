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

/** The task's one form: its intent follows the type (visit, answer, text, url, image or check). */
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
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === kind;
  const [opened, setOpened] = useState(false);
  const error = failure ? failureText(failure) : undefined;
  const onForm = failure !== undefined && failure.errors.form !== undefined;
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
    default:
      body = submit("Check");
  }

  return (
    <Form method="post" encType={brief.type === "submit_image" ? "multipart/form-data" : undefined} className="grid gap-4" noValidate aria-label="Do this task">
      <input type="hidden" name="intent" value={kind} />
      {body}
      {formError && (
        <p role="alert" className="text-sm text-destructive">
          {formError}
        </p>
      )}
    </Form>
  );
}
