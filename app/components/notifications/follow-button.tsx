import { Bell, BellRing } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";

/** Follow / Following on a project's page, with its number of followers; a plain form, so it works before the script has loaded. */
export function FollowButton({ name, following, followers }: { name: string; following: boolean; followers: number }) {
  const navigation = useNavigation();
  const count = followers === 1 ? "1 follower" : `${followers.toLocaleString("en")} followers`;
  return (
    <Form method="post" className="flex items-center gap-2">
      <Button
        type="submit"
        name="intent"
        value={following ? "unfollow" : "follow"}
        variant={following ? "outline" : "brand"}
        pending={navigation.state === "submitting" && navigation.formData?.has("intent") === true}
        aria-pressed={following}
        aria-label={following ? `Following ${name}: unfollow` : `Follow ${name}`}
      >
        {following ? <BellRing aria-hidden /> : <Bell aria-hidden />} {following ? "Following" : "Follow"}
      </Button>
      <span className="text-sm text-muted-foreground">{count}</span>
    </Form>
  );
}
