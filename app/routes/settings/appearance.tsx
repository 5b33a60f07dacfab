import { Monitor, Moon, Sun } from "lucide-react";
import type { Route } from "./+types/appearance";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useAppearance } from "~/hooks/use-appearance";
import type { Appearance } from "~/lib/appearance";
import { pageTitle } from "~/lib/meta";
import { cn } from "~/lib/utils";
import { requireUser } from "~/modules/auth/session.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  return null;
}

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Appearance") }];
}

const OPTIONS: { value: Appearance; label: string; icon: typeof Sun }[] = [
  { value: "light", label: "Light", icon: Sun },
  { value: "dark", label: "Dark", icon: Moon },
  { value: "system", label: "System", icon: Monitor },
];

export default function AppearanceSettings() {
  const { appearance, setAppearance } = useAppearance();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Appearance</CardTitle>
        <CardDescription>Light, dark, or the same as your device.</CardDescription>
      </CardHeader>
      <CardContent>
        <div role="radiogroup" aria-label="Appearance" className="inline-flex gap-1 rounded-lg bg-muted p-1">
          {OPTIONS.map(({ value, label, icon: Icon }) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={appearance === value}
              onClick={() => setAppearance(value)}
              className={cn(
                "flex items-center gap-2 rounded-md px-3.5 py-1.5 text-sm transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
                appearance === value ? "bg-background shadow-xs" : "text-muted-foreground hover:text-foreground",
              )}
            >
              <Icon className="size-4" aria-hidden />
              {label}
            </button>
          ))}
        </div>
      </CardContent>
    </Card>
  );
}
