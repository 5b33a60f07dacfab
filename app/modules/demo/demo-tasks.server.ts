import type { Db } from "~/lib/db.server";
import { failureMessage } from "~/lib/result";
import { taskConfigSchemas } from "~/modules/tasks/task.schema";
import type { TaskType } from "~/modules/tasks/task-types";
import { saveTask } from "~/modules/tasks/tasks.server";

/** A demo task as a campaign's seed writes it: checked by Questline, once, no cap, published. */
export type DemoTaskSpec = { title: string; description: string; type: TaskType; xp: number; config: Record<string, unknown> };

/**
 * Saves a demo campaign's tasks through the tasks module's own `saveTask` (their settings parsed
 * by the type's schema, as the task form's are); a task it refuses stops the seed, naming `what`.
 * Returns each task's id by its type.
 */
export async function saveDemoTasks({
  db,
  projectId,
  campaignId,
  specs,
  now,
  what,
}: {
  db: Db;
  projectId: string;
  campaignId: string;
  specs: DemoTaskSpec[];
  now: Date;
  what: string;
}): Promise<Partial<Record<TaskType, string>>> {
  const ids: Partial<Record<TaskType, string>> = {};
  for (const spec of specs) {
    const saved = await saveTask({
      db,
      projectId,
      input: {
        ...spec,
        config: taskConfigSchemas[spec.type].parse(spec.config) as Record<string, unknown>,
        verification: "auto",
        recurrence: "once",
        startsAt: null,
        endsAt: null,
        cap: null,
        campaignId,
        published: true,
      },
      now,
    });
    if (!saved.ok) throw new Error(`demo ${what} task "${spec.title}": ${failureMessage(saved)}`);
    ids[spec.type] = saved.task.id;
  }
  return ids;
}
