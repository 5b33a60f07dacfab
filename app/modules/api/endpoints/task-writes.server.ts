import { and, eq } from "drizzle-orm";
import { projectMember } from "#db/schema/projects";
import { task } from "#db/schema/quests";
import { apiKey } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";
import { failure, invalidFields, ok, type CodedFailure, type FieldErrors, type FieldFailure } from "~/lib/result";
import { apiEndpoint, type ApiAnswer } from "~/modules/api/api-route.server";
import type { ApiCaller } from "~/modules/api/api-keys.server";
import { z } from "~/modules/api/openapi-zod";
import { taskOut, taskSchema } from "~/modules/api/resources.server";
import { can } from "~/modules/projects/permissions.server";
import type { Task } from "~/modules/tasks/completions.server";
import { endAlreadyPast } from "~/modules/tasks/quest-forms";
import { readOnchainFields } from "~/modules/tasks/onchain-targets.server";
import { onchainNetworks, taskFormRefusals, taskFormValues } from "~/modules/tasks/task-form.server";
import { taskConfigSchemas, taskFormSchema, VERIFICATION_MODES } from "~/modules/tasks/task.schema";
import { isOnchainChecked } from "~/modules/tasks/task-checks";
import { TASK_TYPES, type TaskType } from "~/modules/tasks/task-types";
import { saveTask, type TaskInput } from "~/modules/tasks/tasks.server";
import type { Services } from "~/services/services.server";

/**
 * POST /tasks and PATCH /tasks/{id} (`tasks:write`): a task saved exactly as the task form saves
 * it. The body is read into the form's input through the form's own schemas (`taskFormSchema` for
 * the common fields, the type's `taskConfigSchemas` entry for `config`), asked the same questions
 * of the world (`taskFormRefusals`: its window, its contracts, an api_check URL's address) and
 * saved by `saveTask`, whose rules (cap, type, XP once members are in, airdrops) are the form's.
 * There is no second save path: a rule added to the form's functions holds here too.
 */

const time = z.iso.datetime({ offset: true });

const fields = {
  title: z.string().meta({ description: "3 to 120 characters." }),
  description: z.string().meta({ description: "Up to 2000 characters." }),
  type: z.enum(TASK_TYPES),
  xp: z.number().meta({ description: "Whole XP from 1 to 100,000, paid at each approval." }),
  verification: z
    .enum(["auto", "review", "none"])
    .meta({ description: "How completions are checked; each type allows its own. Left out on creation: the type's first." }),
  recurrence: z.enum(["once", "daily"]),
  config: z.record(z.string(), z.unknown()).meta({
    description:
      "The type's settings, as the task form stores them (`visit_link`: `{ url }`; `api_check`: `{ url, instructions }`; …), checked by the type's schema.",
  }),
  campaign_id: z.string().nullable().meta({ description: "One of the project's campaigns; null: none." }),
  airdrop_id: z
    .string()
    .nullable()
    .meta({ description: "One of the project's airdrops that still takes tasks; a task counts toward one campaign or one airdrop." }),
  starts_at: time.nullable().meta({ description: "Inside its campaign's or airdrop's window; null: from the start." }),
  ends_at: time.nullable().meta({ description: "After `starts_at` (and, for a new task, in the future); null: no end." }),
  cap: z.number().nullable().meta({ description: "At most this many completions (1 or more); null: no cap." }),
  published: z.boolean().meta({ description: "Members see it; false: a draft." }),
};

export const createTaskBody = z
  .strictObject({
    ...fields,
    description: fields.description.optional(),
    verification: fields.verification.optional(),
    recurrence: fields.recurrence.optional(),
    campaign_id: fields.campaign_id.optional(),
    airdrop_id: fields.airdrop_id.optional(),
    starts_at: fields.starts_at.optional(),
    ends_at: fields.ends_at.optional(),
    cap: fields.cap.optional(),
    published: fields.published.optional(),
  })
  .openapi("TaskCreateRequest");

export const updateTaskBody = z.strictObject(fields).partial().openapi("TaskUpdateRequest");

type TaskWrite = z.infer<typeof updateTaskBody>;

/** The form's field names as the API spells them; `config.*` keep the config object's own names. */
const API_FIELDS: Record<string, string> = { startsAt: "starts_at", endsAt: "ends_at", campaignId: "campaign_id", airdropId: "airdrop_id" };
const apiFields = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(Object.entries(errors).map(([field, message]) => [API_FIELDS[field] ?? field, message]));
const refused = (errors: FieldErrors): FieldFailure => invalidFields(apiFields(errors));

/**
 * Who the API acts as: `saveTask` takes no member, but the form is only open to those the project
 * lets manage its quests (`quests.manage`: owners and admins). A key is what its creator handed to
 * a server, so writes through it need the creator to hold that right still: a key made by someone
 * who has since left the team, or is now a reviewer, writes nothing (403) until an owner or admin
 * makes a new one. Reads are not the team's form, and stay allowed.
 */
async function creatorMayManageTasks(db: Db, caller: ApiCaller): Promise<CodedFailure | null> {
  const [row] = await db
    .select({ role: projectMember.role })
    .from(apiKey)
    .leftJoin(projectMember, and(eq(projectMember.projectId, apiKey.projectId), eq(projectMember.userId, apiKey.createdBy)))
    .where(eq(apiKey.id, caller.keyId));
  if (can(row?.role, "quests.manage")) return null;
  return failure(
    "forbidden",
    "The member who created this key no longer manages this project's tasks (owners and admins do): an owner or admin must create a new key with the tasks:write scope.",
  );
}

/**
 * The whole task a write asks for (a PATCH's fields over the task as it is), read the way the task
 * form reads its fields: the same schema, messages and refusals, on the API's field names.
 */
function readTaskWrite(write: TaskWrite & { type: TaskType }, chainIds: number[]): { ok: true; input: TaskInput } | FieldFailure {
  const errors: FieldErrors = {};
  const common = taskFormSchema.safeParse({
    title: write.title ?? "",
    description: write.description ?? "",
    type: write.type,
    xp: write.xp,
    verification: write.verification ?? VERIFICATION_MODES[write.type][0],
    recurrence: write.recurrence ?? "once",
    startsAt: write.starts_at ?? "",
    endsAt: write.ends_at ?? "",
    cap: write.cap == null ? "" : String(write.cap),
    campaignId: write.campaign_id ?? "",
    airdropId: write.airdrop_id ?? "",
  });
  if (!common.success) for (const issue of common.error.issues) errors[issue.path.map(String).join(".") || "form"] ??= issue.message;
  // The form asks for a YouTube channel's name, so members know the channel they look for (parseTaskConfig).
  const schema = write.type === "youtube_subscribe" ? taskConfigSchemas.youtube_subscribe.required({ channelName: true }) : taskConfigSchemas[write.type];
  const config = schema.safeParse(write.config);
  if (!config.success) for (const issue of config.error.issues) errors[["config", ...issue.path.map(String)].join(".")] ??= issue.message;
  // The form offers the networks this server has a node for, and refuses another (readTaskForm).
  if (config.success && isOnchainChecked(write.type)) {
    const chainId = Number((config.data as Record<string, unknown>).chainId);
    if (!chainIds.includes(chainId)) errors["config.chainId"] = `This server has no node for chain ${chainId}: use one of ${chainIds.join(", ") || "none"}`;
  }
  const read = config.success ? readOnchainConfig(write.type, config.data as Record<string, unknown>) : null;
  if (read) Object.assign(errors, read.errors);
  if (!common.success || !read || Object.keys(errors).length > 0) return refused(errors);
  return { ok: true, input: { ...common.data, config: read.config, published: write.published ?? false } };
}

/** The form's typed on-chain fields, by the stored config's names. */
const ONCHAIN_FIELDS: Record<string, string> = {
  "config.signatures": "config.functions",
  "config.abi": "config.functions",
  "config.transferToken": "config.transfer.token",
  "config.transferMinAmount": "config.transfer.minAmount",
  "config.minArgName": "config.minArg.name",
  "config.minArgMin": "config.minArg.min",
};

/**
 * The form reads a contract_call's functions from typed signatures and an event_emitted's event and
 * arguments from its declaration (`readOnchainFields`: the member's argument an indexed address, the
 * minimum's a number, amounts above 0). The API is given the stored shape, so it is turned back into
 * the form's fields (`taskFormValues`) and read the same way: the same refusals, and what is stored is
 * what the form would store (each function's selector is its signature's own).
 */
function readOnchainConfig(type: TaskType, config: Record<string, unknown>): { config: Record<string, unknown>; errors: FieldErrors } {
  if (type !== "contract_call" && type !== "event_emitted") return { config, errors: {} };
  const values = taskFormValues({ type, config } as Task);
  const normalized = new FormData();
  for (const [name, value] of Object.entries(values)) normalized.set(name, value);
  const errors = apiFields(readOnchainFields(type, values, normalized));
  const mapped = Object.fromEntries(Object.entries(errors).map(([field, message]) => [ONCHAIN_FIELDS[field] ?? field, message]));
  if (Object.keys(mapped).length > 0) return { config, errors: mapped };
  if (type === "event_emitted") return { config: { ...config, event: normalized.get("config.event") }, errors: {} };
  return { config: { ...config, functions: JSON.parse(String(normalized.get("config.functions"))) as unknown }, errors: {} };
}

/** Asks what the form asks before saving (and, for a new task, that its end is still ahead), then saves through `saveTask`. */
async function saveAsTheForm({
  db,
  services,
  projectId,
  taskId,
  input,
  now,
}: {
  db: Db;
  services: Services;
  projectId: string;
  taskId?: string;
  input: TaskInput;
  now: Date;
}): Promise<ApiAnswer<z.input<typeof taskSchema>>> {
  const refusals = await taskFormRefusals({ db, chains: services.chains, projectId, input, allowLoopback: !services.env.isPublic });
  if (Object.keys(refusals).length > 0) return refused(refusals);
  const past = taskId ? null : endAlreadyPast(input.endsAt, now);
  if (past) return refused(past.errors);
  const saved = await saveTask({ db, projectId, taskId, input, now });
  return saved.ok ? ok({ body: taskOut(saved.task) }) : refused(saved.errors);
}

export const createTask = apiEndpoint({
  method: "post",
  path: "/tasks",
  scope: "tasks:write",
  tags: ["Tasks"],
  operationId: "createTask",
  summary: "Create a task",
  description:
    "Creates a task in the key's project, checked and saved exactly as the task form does, once per `Idempotency-Key`. The key's creator must still be an owner or admin of the project.",
  body: createTaskBody,
  idempotent: true,
  successStatus: 201,
  response: taskSchema,
  handler: async ({ db, services, caller, projectId, body, now }) => {
    const creator = await creatorMayManageTasks(db, caller);
    if (creator) return creator;
    const read = readTaskWrite(body, onchainNetworks(services.chains));
    if (!read.ok) return read;
    return saveAsTheForm({ db, services, projectId, input: read.input, now });
  },
});

/** A stored task as a write's fields: what a PATCH leaves out stays as it is. */
const asWrite = (current: Task): TaskWrite & { type: TaskType } => ({
  title: current.title,
  description: current.description,
  type: current.type,
  xp: current.xp,
  verification: current.verification,
  recurrence: current.recurrence,
  config: current.config as Record<string, unknown>,
  campaign_id: current.campaignId,
  airdrop_id: current.airdropId,
  starts_at: current.startsAt?.toISOString() ?? null,
  ends_at: current.endsAt?.toISOString() ?? null,
  cap: current.cap,
  published: current.publishedAt !== null,
});

export const updateTask = apiEndpoint({
  method: "patch",
  path: "/tasks/{id}",
  scope: "tasks:write",
  tags: ["Tasks"],
  operationId: "updateTask",
  summary: "Change a task",
  description:
    "Changes the fields given; the others stay. `config` is replaced whole (a new `type` needs its own). Checked and saved exactly as the task form does: a task members have done keeps its type, its XP once completions are in, and a cap at least the places taken.",
  params: z.object({
    id: z
      .string()
      .min(1)
      .max(100)
      .openapi({ param: { description: "The task's id." } }),
  }),
  body: updateTaskBody,
  response: taskSchema,
  handler: async ({ db, services, caller, projectId, params, body, now }) => {
    const creator = await creatorMayManageTasks(db, caller);
    if (creator) return creator;
    const [current] = await db
      .select()
      .from(task)
      .where(and(eq(task.projectId, projectId), eq(task.id, params.id)));
    if (!current) return failure("not_found", "This project has no task with this id.");
    if (body.type !== undefined && body.type !== current.type && body.config === undefined) {
      return refused({ config: `A ${body.type} task needs its own config: send it with the new type` });
    }
    const read = readTaskWrite({ ...asWrite(current), ...body }, onchainNetworks(services.chains));
    if (!read.ok) return read;
    return saveAsTheForm({ db, services, projectId, taskId: current.id, input: read.input, now });
  },
});
