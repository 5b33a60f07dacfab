import { Link, useParams } from "react-router";
import { CheckboxField } from "~/components/ui/form-parts";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { TaskType } from "~/modules/tasks/task-types";
import { ApiCheckFields, type ApiCheckTools } from "./api-check-fields";
import { ContractCallFields, EventEmittedFields, HoldTokenFields, NftHoldFields, WalletActivityFields } from "./onchain-config-fields";

type Props = {
  type: TaskType;
  values: Record<string, string>;
  errors: Record<string, string>;
  /** The networks on-chain tasks may use (those this server has a node for). */
  networks: { id: number; name: string }[];
  /** An api_check task's "Try it" and signing secret, for owners and admins (null: not shown). */
  apiCheck?: ApiCheckTools | null;
};

/** The chosen type's own settings, named `config.<field>` as `parseTaskConfig` reads them. */
export function TaskConfigFields({ type, values, errors, networks, apiCheck = null }: Props) {
  const text = (name: string, label: string, extra: { hint?: string; type?: string; placeholder?: string; inputMode?: "decimal" | "numeric" } = {}) => {
    const id = `config.${name}`;
    return (
      <Field id={id} label={label} hint={extra.hint} error={errors[id]}>
        <Input
          {...fieldProps(id, errors[id])}
          type={extra.type ?? "text"}
          inputMode={extra.inputMode}
          placeholder={extra.placeholder}
          defaultValue={values[id] ?? ""}
        />
      </Field>
    );
  };
  const area = (name: string, label: string, hint?: string) => {
    const id = `config.${name}`;
    return (
      <Field id={id} label={label} hint={hint} error={errors[id]}>
        <Textarea {...fieldProps(id, errors[id])} defaultValue={values[id] ?? ""} rows={3} />
      </Field>
    );
  };
  const prompt = area("prompt", "Instructions", "What members should send. Shown above their answer box.");
  const checkbox = (name: string, label: string, hint: string) => (
    <CheckboxField name={`config.${name}`} label={label} hint={hint} defaultChecked={values[`config.${name}`] === "on"} />
  );
  const stopped: Partial<Record<TaskType, string>> = {
    youtube_subscribe: "stopped subscribing",
    discord_join: "left the server",
    discord_role: "lost the role (or left the server)",
  };
  const recheck = checkbox(
    "recheckBeforeRewards",
    "Check again before rewards are paid",
    `Once, when the campaign's rewards are paid: a member who ${stopped[type] ?? "stopped following"} loses this task's approval and its XP, and is told why.`,
  );
  const discordServer = (
    <>
      {text("guildName", "Server name", { placeholder: "Questline", hint: "As Discord shows it: members look for this name." })}
      {text("guildId", "Server id", {
        inputMode: "numeric",
        placeholder: "1234567890123456789",
        hint: "17 to 20 digits: in Discord, turn on Developer Mode (Settings › Advanced), then open the server's menu › Copy Server ID.",
      })}
      {text("inviteUrl", "Invite link", {
        type: "url",
        placeholder: "https://discord.gg/…",
        hint: "A discord.gg or discord.com/invite link that does not expire: members join with it.",
      })}
    </>
  );
  const phrase = (where: string) =>
    text("phrase", "Phrase or link the post must contain", { placeholder: "#Questline", hint: `Found in ${where}, ignoring capitals.` });

  switch (type) {
    case "visit_link":
      return text("url", "Link to visit", { type: "url", placeholder: "https://", hint: "Opens in a new tab; members then press Verify." });
    case "quiz":
      return (
        <>
          {area("question", "Question")}
          {area("answers", "Accepted answers", "One per line. Capitals and spaces are ignored.")}
          {text("retryDelaySeconds", "Wait after a wrong answer (seconds)", {
            type: "number",
            inputMode: "numeric",
            hint: "0 lets members try again at once.",
          })}
        </>
      );
    case "submit_text":
      return (
        <>
          {prompt}
          {text("minLength", "Minimum length (characters)", { type: "number", inputMode: "numeric" })}
        </>
      );
    case "submit_url":
    case "submit_image":
      return prompt;
    case "hold_token":
      return <HoldTokenFields values={values} errors={errors} networks={networks} />;
    case "nft_hold":
      return <NftHoldFields values={values} errors={errors} networks={networks} />;
    case "contract_call":
      return <ContractCallFields values={values} errors={errors} networks={networks} />;
    case "event_emitted":
      return <EventEmittedFields values={values} errors={errors} networks={networks} />;
    case "wallet_activity":
      return <WalletActivityFields values={values} errors={errors} networks={networks} />;
    case "wallet_connected":
      return <p className="text-sm text-muted-foreground">Nothing to set: members complete it by linking a wallet to their account.</p>;
    case "referral":
      return text("count", "Members to invite", { type: "number", inputMode: "numeric", hint: "Members who sign up through the member's invite link." });
    case "x_follow":
      return (
        <>
          {text("handle", "X account to follow", { placeholder: "@questline", hint: "@name, name or its x.com/name link." })}
          {checkbox(
            "allowProof",
            "Accept proof when X does not show the follow",
            "X may not list a follow at once (only its most recent follows are read). The member may then send a screenshot or a link, which the team reviews.",
          )}
          {recheck}
        </>
      );
    case "x_like":
    case "x_repost":
      return text("postUrl", `Post to ${type === "x_like" ? "like" : "repost"}`, {
        type: "url",
        placeholder: "https://x.com/questline/status/…",
        hint: "The post's link, from x.com or twitter.com.",
      });
    case "x_post":
      return phrase("the member's recent posts on X (not replies or reposts)");
    case "tiktok_post":
      return phrase("the descriptions of the member's recent TikTok videos");
    case "instagram_post":
      return phrase("the captions of the member's recent Instagram posts (professional accounts only)");
    case "youtube_subscribe":
      return (
        <>
          {text("channelName", "Channel name", {
            placeholder: "Questline",
            hint: "As YouTube shows it: members look for this name.",
          })}
          {text("channelId", "YouTube channel", {
            placeholder: "UC… or https://www.youtube.com/channel/UC…",
            hint: "The channel's id, or its youtube.com/channel/UC… link (a @handle link does not say the id: open the channel's About › Share › Copy channel ID).",
          })}
          {recheck}
        </>
      );
    case "tiktok_follow":
      return text("handle", "TikTok account to follow", {
        placeholder: "@questline",
        hint: "@name, name or its tiktok.com/@name link. Members send proof; the team reviews it.",
      });
    case "instagram_follow":
      return text("handle", "Instagram account to follow", {
        placeholder: "@questline",
        hint: "@name, name or its instagram.com/name link. Members send proof; the team reviews it.",
      });
    case "api_check":
      return <ApiCheckFields values={values} errors={errors} tools={apiCheck} />;
    case "telegram_join":
      return (
        <>
          <TelegramBotNote />
          {text("chatTitle", "Group or channel name", { placeholder: "Questline Community", hint: "As Telegram shows it: members look for this name." })}
          {text("chatId", "Group or channel", { placeholder: "@questline or -100…", hint: "@name, its t.me/name link, or its id (-100…)." })}
          {text("inviteUrl", "Link to join", { type: "url", placeholder: "https://t.me/…", hint: "Where members join: its t.me link or an invite link." })}
          {checkbox(
            "recheckBeforeRewards",
            "Check again before rewards are paid",
            "Once, when the campaign's rewards are paid: a member who left the group or channel loses this task's approval and its XP, and is told why.",
          )}
        </>
      );
    case "discord_join":
      return (
        <>
          {discordServer}
          {recheck}
        </>
      );
    case "discord_role":
      return (
        <>
          {discordServer}
          {text("roleName", "Role name", { placeholder: "Holder", hint: "As Discord shows it: members look for this name." })}
          {text("roleId", "Role id", {
            inputMode: "numeric",
            placeholder: "1234567890123456789",
            hint: "17 to 20 digits: Server Settings › Roles, then the role's menu › Copy Role ID (Developer Mode on).",
          })}
          {recheck}
        </>
      );
  }
}

/** Telegram tasks are read by the project's own bot: where to set it up. */
function TelegramBotNote() {
  const { project } = useParams();
  return (
    <p className="rounded-lg border p-3 text-sm text-muted-foreground">
      Checked with Telegram by your project&apos;s bot, which must be an administrator of the group or channel.{" "}
      {project ? (
        <Link className="underline underline-offset-4" to={`/projects/${encodeURIComponent(project)}/telegram`}>
          Set up the project&apos;s Telegram bot
        </Link>
      ) : (
        "Set it up on the project's Telegram page."
      )}
    </p>
  );
}
