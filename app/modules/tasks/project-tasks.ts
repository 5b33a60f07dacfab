import type { TaskType } from "./task-types";

/** What holds a task: a campaign, a crusade, an airdrop, or nothing (a standalone task). */
export const TASK_CONTAINER_KINDS = ["campaign", "crusade", "airdrop", "standalone"] as const;
export type TaskContainerKind = (typeof TASK_CONTAINER_KINDS)[number];

/** A task as a member would meet it now: its own dates and its container's, the stricter winning. */
export const TASK_LIST_STATUSES = ["draft", "scheduled", "live", "ended"] as const;
export type TaskListStatus = (typeof TASK_LIST_STATUSES)[number];

/** What holds a task, named; `slug` where it has a page of its own. */
export type TaskContainer = { kind: TaskContainerKind; name: string | null; slug: string | null };

/** One row of a project's Tasks page (plain data for the page). */
export type ProjectTaskRow = {
  id: string;
  title: string;
  type: TaskType;
  /** The type in words ("Visit a link"). */
  typeLabel: string;
  xp: number;
  container: TaskContainer;
  status: TaskListStatus;
  approved: number;
  pending: number;
};
