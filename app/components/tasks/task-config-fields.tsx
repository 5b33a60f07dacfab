import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import type { TaskType } from "~/modules/tasks/task-types";

type Props = {
  type: TaskType;
  values: Record<string, string>;
  errors: Record<string, string>;
  networks: { id: number; name: string }[];
};

/** The chosen type's own settings, named `config.<field>` as `parseTaskConfig` reads them. */
export function TaskConfigFields({ type, values, errors, networks }: Props) {
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
      return (
        <>
          <Field id="config.chainId" label="Network" error={errors["config.chainId"]}>
            <Select {...fieldProps("config.chainId", errors["config.chainId"])} defaultValue={values["config.chainId"] ?? String(networks[0]?.id ?? "")}>
              {networks.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.name} ({n.id})
                </option>
              ))}
            </Select>
          </Field>
          {text("tokenAddress", "Token address", { placeholder: "0x…", hint: "Leave empty for the network's native coin (BNB, ETH)." })}
          {text("minBalance", "Minimum balance", { inputMode: "decimal", placeholder: "1.5", hint: "In whole tokens: 1.5 means one and a half." })}
          <div className="grid items-start gap-5 sm:grid-cols-2">
            {text("symbol", "Symbol", { placeholder: "USDT", hint: "Shown to members." })}
            {text("decimals", "Decimals", { type: "number", inputMode: "numeric", hint: "18 for most tokens." })}
          </div>
        </>
      );
    case "wallet_connected":
      return <p className="text-sm text-muted-foreground">Nothing to set: members complete it by linking a wallet to their account.</p>;
    case "referral":
      return text("count", "Members to invite", { type: "number", inputMode: "numeric", hint: "Members who sign up through the member's invite link." });
  }
}
