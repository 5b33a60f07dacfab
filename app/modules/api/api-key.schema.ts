import { z } from "zod";
import { API_SCOPES } from "./api-scopes";

/** The keys page's Create form: a name and one checkbox per scope (`scope.read`, …, sent as "on" when ticked). */
export const apiKeyFormSchema = z.preprocess(
  (form) => {
    const fields = (form ?? {}) as Record<string, unknown>;
    return { name: fields.name, scopes: API_SCOPES.filter((scope) => fields[`scope.${scope}`] === "on") };
  },
  z.object({
    name: z.string("Name the key: who or what uses it").trim().min(1, "Name the key: who or what uses it").max(60, "Keep the name under 60 characters"),
    scopes: z.array(z.enum(API_SCOPES)).min(1, "Choose at least one scope"),
  }),
);
