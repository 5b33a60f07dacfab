import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { UserAvatar } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { ImageInput } from "~/components/ui/image-input";
import { Input } from "~/components/ui/input";

type Errors = Record<string, string>;

/** What the profile page's action answers, per form (its hidden `intent`). */
export type ProfileActionData =
  | { intent: "profile"; errors?: Errors; values?: Record<string, string>; saved?: boolean }
  | { intent: "email-request"; errors?: Errors; newEmail?: string; sent?: boolean }
  | { intent: "email-confirm"; errors?: Errors; newEmail: string; changed?: boolean }
  | { intent: "unlink-wallet"; error?: string; unlinked?: boolean };

type Answer<I extends ProfileActionData["intent"]> = Extract<ProfileActionData, { intent: I }>;

export type ProfileShown = { name: string; email: string | null; image: string | null; username: string | null };

/** Avatar, display name and username. */
export function ProfileCard({ profile, result, pending }: { profile: ProfileShown; result: Answer<"profile"> | undefined; pending: boolean }) {
  const errors = result?.errors ?? {};
  const values = result?.values;
  const form = useRef<HTMLFormElement>(null);
  // Once saved, the fields show what was kept (a username in lower case, a name trimmed), not what was typed.
  useEffect(() => {
    if (result?.saved) form.current?.reset();
  }, [result]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>How other members see you.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form ref={form} method="post" encType="multipart/form-data" className="grid gap-5" noValidate>
          <input type="hidden" name="intent" value="profile" />
          <div className="flex items-center gap-4">
            <UserAvatar name={profile.name || profile.email || "?"} image={profile.image} className="size-16 text-lg" />
            <div className="grid flex-1 gap-2">
              <ImageInput id="avatar" label="Avatar" hint="PNG, JPEG, GIF or WebP, up to 2 MB." error={errors.avatar} />
            </div>
          </div>
          <Field id="name" label="Display name" error={errors.name}>
            <Input {...fieldProps("name", errors.name)} defaultValue={values?.name ?? profile.name} autoComplete="nickname" maxLength={50} />
          </Field>
          <Field id="username" label="Username" hint="3–30 letters, digits or underscores. Unique on Questline." error={errors.username}>
            <Input
              {...fieldProps("username", errors.username)}
              defaultValue={values?.username ?? profile.username ?? ""}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
            />
          </Field>
          <Button type="submit" className="w-fit" pending={pending}>
            Save profile
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

/** The sign-in e-mail: a new address is confirmed with a code sent to it. */
export function EmailCard({
  email,
  request: emailRequest,
  confirm: emailConfirm,
  submitting,
}: {
  email: string | null;
  request: Answer<"email-request"> | undefined;
  confirm: Answer<"email-confirm"> | undefined;
  /** The intent of the form being sent, if any. */
  submitting: FormDataEntryValue | null | undefined;
}) {
  const pendingEmail = (emailRequest?.sent && emailRequest.newEmail) || (emailConfirm && !emailConfirm.changed ? emailConfirm.newEmail : undefined);
  return (
    <Card>
      <CardHeader>
        <CardTitle>E-mail</CardTitle>
        <CardDescription>
          {email ? (
            <>
              You sign in with <strong className="text-foreground wrap-anywhere">{email}</strong>. To change it, we send a code to the new address.
            </>
          ) : (
            "Add an e-mail to sign in without your wallet. We send a code to confirm it."
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {pendingEmail ? (
          <Form method="post" className="grid gap-4" key="confirm" noValidate>
            <input type="hidden" name="intent" value="email-confirm" />
            <input type="hidden" name="newEmail" value={pendingEmail} />
            <Field id="code" label={`Code sent to ${pendingEmail}`} error={emailConfirm?.errors?.code}>
              <Input
                {...fieldProps("code", emailConfirm?.errors?.code)}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                className="max-w-40 tracking-[0.4em]"
              />
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" pending={submitting === "email-confirm"}>
                Confirm new e-mail
              </Button>
            </div>
          </Form>
        ) : (
          <Form method="post" className="grid gap-4" key="request" noValidate>
            <input type="hidden" name="intent" value="email-request" />
            <Field id="newEmail" label="New e-mail" error={emailRequest?.errors?.newEmail}>
              <Input {...fieldProps("newEmail", emailRequest?.errors?.newEmail)} type="email" autoComplete="email" />
            </Field>
            <Button type="submit" variant="outline" className="w-fit" pending={submitting === "email-request"}>
              Send code
            </Button>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}
