import { MailCheck } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { PageFallback } from "~/components/ui/page-fallback";
import { toast } from "~/components/ui/toaster";
import { Button } from "~/components/ui/button";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { route } from "~/lib/routes";
import { cn } from "~/lib/utils";
import type { SignInActionData } from "~/modules/auth/sign-in.schema";
import { OtpInput } from "./otp-input";
import { WalletSignInButton } from "./wallet-sign-in-button";

type Mode = "email" | "password";

/**
 * The sign-in flow, on the /login page and in the sign-in modal: an e-mail address, then the
 * "check your inbox" step with the 6-digit code; or an e-mail address and a password.
 *
 * On the /login page it also works as plain HTML, before the page's script has taken over or
 * without it: the forms post to the page (`posted` is the answer), keeping `redirectTo` in the
 * address, and the "instead" buttons open the page on their step (`method`).
 */
export function SignInForm({
  redirectTo,
  method = "email",
  posted,
  onWallet,
}: {
  redirectTo: string;
  method?: Mode;
  posted?: SignInActionData;
  onWallet?: () => void;
}) {
  const fetcher = useFetcher<SignInActionData>();
  const [mode, setMode] = useState<Mode>(posted?.step === "password" ? "password" : method);
  const [email, setEmail] = useState(posted?.email ?? "");
  const [restarted, setRestarted] = useState(0);
  const codeForm = useRef<HTMLFormElement>(null);
  const action = route("login", { redirectTo });
  const result = fetcher.state === "idle" ? (fetcher.data ?? posted) : undefined;
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
        <fetcher.Form method="post" action={action} ref={codeForm} className="grid gap-3" onSubmit={nextAttempt}>
          <input type="hidden" name="intent" value="code" />
          <input type="hidden" name="email" value={result.email} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <OtpInput
            key={attempt}
            name="code"
            invalid={Boolean(errors.code)}
            disabled={pendingIntent === "code"}
            onComplete={(code) => {
              // The boxes still hold the previous render's digits at this point.
              const formData = new FormData(codeForm.current ?? undefined);
              formData.set("code", code);
              void fetcher.submit(formData, { method: "post", action });
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
          <fetcher.Form method="post" action={action}>
            <input type="hidden" name="intent" value="send" />
            <input type="hidden" name="resend" value="1" />
            <input type="hidden" name="email" value={result.email} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Button type="submit" variant="link" className="h-auto p-0" pending={pendingIntent === "send"}>
              Send a new code
            </Button>
          </fetcher.Form>
          <StepButton query={{ redirectTo }} className="text-muted-foreground" onClick={() => setRestarted((n) => n + 1)}>
            Use another e-mail
          </StepButton>
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
      <fetcher.Form method="post" action={action} className="grid gap-4" onSubmit={() => setRestarted(0)} noValidate>
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
      <StepButton
        query={{ redirectTo, method: mode === "email" ? "password" : "email" }}
        className="text-sm text-muted-foreground"
        onClick={() => setMode(mode === "email" ? "password" : "email")}
      >
        {mode === "email" ? "Sign in with a password instead" : "E-mail me a link and a code instead"}
      </StepButton>
      <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      <WalletSignInButton onOpen={onWallet} />
    </div>
  );
}

/**
 * A link-styled button that moves the form to another step: in place once the page's script has
 * taken over, and before that (or without it) by opening the sign-in page at that step (`query`).
 */
function StepButton({ query, className, onClick, children }: { query: Record<string, string>; className?: string; onClick: () => void; children: ReactNode }) {
  return (
    <PageFallback action={route("login")} fields={query}>
      <Button variant="link" className={cn("h-auto p-0", className)} onClick={onClick}>
        {children}
      </Button>
    </PageFallback>
  );
}
