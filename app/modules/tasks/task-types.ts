/** Every kind of task: the values of `task.type` (db/schema/quests.ts), here so components can name them. */
export const TASK_TYPES = ["visit_link", "quiz", "submit_text", "submit_url", "submit_image", "hold_token", "wallet_connected", "referral"] as const;
export type TaskType = (typeof TASK_TYPES)[number];
