import { MailCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { Button } from "~/components/ui/button";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import type { SignInActionData } from "~/modules/auth/sign-in.schema";
import { OtpInput } from "./otp-input";
import { WalletSignInButton } from "./wallet-sign-in-button";

type Mode = "email" | "password";

/**
 * The sign-in flow, on the /login page and in the sign-in modal: an e-mail address, then the
 * "check your inbox" step with the 6-digit code; or an e-mail address and a password.
 */
export function SignInForm({ redirectTo, onWallet }: { redirectTo: string; onWallet?: () => void }) {
  const fetcher = useFetcher<SignInActionData>();
  const [mode, setMode] = useState<Mode>("email");
  const [email, setEmail] = useState("");
  const [restarted, setRestarted] = useState(0);
  const codeForm = useRef<HTMLFormElement>(null);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const errors = result && "errors" in result ? result.errors : {};
  const codeStep = mode === "email" && result?.step === "code" && restarted === 0;
  const pendingIntent = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;

  // Each try starts from empty boxes, so a wrong code is not left in place.
  const [attempt, setAttempt] = useState(0);
  const nextAttempt = () => setAttempt((n) => n + 1);

  useEffect(() => {
    if (result?.step === "code" && !("errors" in result) && fetcher.formData === undefined) {
      if (result.resent) toast.success(`We sent a new link and code to ${result.email}`);
    }
  }, [result, fetcher.formData]);

  if (codeStep && result?.email) {
    return (
      <div className="grid gap-5">
        <div className="grid justify-items-center gap-2 text-center">
          <MailCheck className="size-10 text-muted-foreground" aria-hidden />
          <h1 className="text-xl font-semibold">Check your inbox</h1>
          <p className="text-sm text-muted-foreground">
            We sent a sign-in link and a 6-digit code to <strong className="text-foreground wrap-anywhere">{result.email}</strong>. Open the link, or enter the
            code below.
          </p>
        </div>
        <fetcher.Form method="post" action="/login" ref={codeForm} className="grid gap-3" onSubmit={nextAttempt}>
          <input type="hidden" name="intent" value="code" />
          <input type="hidden" name="email" value={result.email} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <OtpInput
            key={attempt}
            name="code"
            invalid={Boolean(errors.code)}
            disabled={pendingIntent === "code"}
            onComplete={(code) => {
              // The hidden `code` input still holds the previous render's digits at this point.
              const formData = new FormData(codeForm.current ?? undefined);
              formData.set("code", code);
              void fetcher.submit(formData, { method: "post", action: "/login" });
              nextAttempt();
            }}
          />
          {(errors.code ?? errors.email) && (
            <p role="alert" className="text-sm text-destructive">
              {errors.code ?? errors.email}
            </p>
          )}
          <Button type="submit" pending={pendingIntent === "code"}>
            Verify code
          </Button>
        </fetcher.Form>
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <fetcher.Form method="post" action="/login">
            <input type="hidden" name="intent" value="send" />
            <input type="hidden" name="resend" value="1" />
            <input type="hidden" name="email" value={result.email} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Button type="submit" variant="link" className="h-auto p-0" pending={pendingIntent === "send"}>
              Send a new code
            </Button>
          </fetcher.Form>
          <Button variant="link" className="h-auto p-0 text-muted-foreground" onClick={() => setRestarted((n) => n + 1)}>
            Use another e-mail
          </Button>
        </div>
      </div>
    );
  }

  const sendError = mode === "email" && result?.step === "email" ? errors.email : undefined;
  const passwordErrors = mode === "password" ? errors : {};

  return (
    <div className="grid gap-5">
      <div className="grid gap-1 text-center">
        <h1 className="text-xl font-semibold">Sign in</h1>
        <p className="text-sm text-muted-foreground">
          {mode === "email" ? "We will e-mail you a sign-in link and a code." : "Sign in with your e-mail and password."}
        </p>
      </div>
      <fetcher.Form method="post" action="/login" className="grid gap-4" onSubmit={() => setRestarted(0)} noValidate>
        <input type="hidden" name="intent" value={mode === "email" ? "send" : "password"} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field id="email" label="E-mail" error={sendError ?? passwordErrors.email}>
          <Input
            {...fieldProps("email", sendError ?? passwordErrors.email)}
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        {mode === "password" && (
          <Field id="password" label="Password" error={passwordErrors.password}>
            <Input {...fieldProps("password", passwordErrors.password)} type="password" autoComplete="current-password" required />
          </Field>
        )}
        <Button type="submit" pending={fetcher.state !== "idle"}>
          {mode === "email" ? "Continue with e-mail" : "Sign in"}
        </Button>
      </fetcher.Form>
      <Button variant="link" className="h-auto p-0 text-sm text-muted-foreground" onClick={() => setMode(mode === "email" ? "password" : "email")}>
        {mode === "email" ? "Sign in with a password instead" : "E-mail me a link and a code instead"}
      </Button>
      <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      <WalletSignInButton onOpen={onWallet} />
    </div>
  );
}
