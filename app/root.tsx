import { useEffect } from "react";
import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData, type LinkDescriptor } from "react-router";
import type { Route } from "./+types/root";
import { StatusPage } from "~/components/status-page";
import { ProgressBar } from "~/components/progress-bar";
import { Toaster } from "~/components/ui/toaster";
import { AppearanceProvider, useAppearance } from "~/hooks/use-appearance";
import { useFlashToast } from "~/hooks/use-flash-toast";
import { useAppName } from "~/hooks/root-data";
import { readFlash } from "~/lib/flash.server";
import { appearanceFromCookie, systemAppearanceScript } from "~/lib/appearance";
import { checkFormBody } from "~/lib/form-body.server";
import { servicesContext } from "~/services/services.server";
import { getSession, provideSession } from "~/modules/auth/session.server";
import { referralCookie, referrerFromUrl } from "~/modules/users/referrals.server";
import { nonceContext } from "~/lib/nonce";
import { rememberedWallet } from "~/wallet/remembered-wallet";
import { WalletProvider } from "~/wallet/wallet-provider";
import stylesheet from "./app.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // With a precedence React puts the stylesheet in the head before the scripts' modulepreloads, so a
  // slow connection fetches what the first paint waits for first.
  { rel: "stylesheet", href: stylesheet, precedence: "high" } as LinkDescriptor,
];

export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    await checkFormBody(request);
    provideSession(context, context.get(servicesContext), request);
    const response = await next();
    // An invite link (`?ref=<member>`) is remembered until the visitor signs up.
    const referrer = request.method === "GET" ? referrerFromUrl(new URL(request.url)) : null;
    if (referrer && response instanceof Response) response.headers.append("set-cookie", referralCookie(referrer));
    return response;
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await getSession(context);
  const { env } = context.get(servicesContext);
  // A message an action left for the page it redirected to (flash.server.ts): shown once, then cleared.
  const { flash, headers } = readFlash(request, { appUrl: env.APP_URL });
  return data(
    {
      flash,
      appName: env.APP_NAME,
      // Public pages name their canonical address with it.
      appUrl: env.APP_URL,
      appearance: appearanceFromCookie(request.headers.get("cookie")),
      rememberedWallet: rememberedWallet(request.headers.get("cookie")),
      nonce: context.get(nonceContext),
      chains: context.get(servicesContext).chains.config,
      user: session
        ? {
            id: session.user.id,
            name: session.user.name,
            email: session.user.email,
            image: session.user.image ?? null,
            username: (session.user.username as string | null | undefined) ?? null,
            signInMethod: (session.session.signInMethod as string | null | undefined) ?? null,
          }
        : null,
    },
    { headers },
  );
}

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const appearance = data?.appearance ?? "system";
  return (
    <html lang="en" className={appearance === "dark" ? "dark" : undefined} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {appearance === "system" && <script nonce={data?.nonce} dangerouslySetInnerHTML={{ __html: systemAppearanceScript }} />}
        <Meta />
        <Links />
      </head>
      <body className="min-h-svh">
        <AppearanceProvider initial={appearance}>
          <ProgressBar />
          {children}
          <Toaster />
        </AppearanceProvider>
        <ScrollRestoration nonce={data?.nonce} />
        <Scripts nonce={data?.nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { dark } = useAppearance();
  useFlashToast(loaderData.flash);
  // Marks the document once its script has taken over: before that, a button needing it does nothing.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <WalletProvider
      config={loaderData.chains}
      appName={loaderData.appName}
      dark={dark}
      signedIn={loaderData.user !== null}
      walletSession={loaderData.user?.signInMethod === "wallet"}
      remembered={loaderData.rememberedWallet}
    >
      <Outlet />
    </WalletProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const appName = useAppName();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <StatusPage appName={appName} status={404} title="Page not found" message="There is nothing at this address." />;
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    return <StatusPage appName={appName} status={403} title="Not allowed" message="You do not have access to this page." />;
  }
  if (import.meta.env.DEV && error instanceof Error) console.error(error);
  return (
    <StatusPage
      appName={appName}
      status={isRouteErrorResponse(error) ? error.status : 500}
      title="Something went wrong"
      message="An unexpected error occurred. Try again in a moment."
    />
  );
}
