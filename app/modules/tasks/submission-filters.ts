/** The submission tables' filters, read from a URL: status tab, task, search and page. */
export const SUBMISSION_STATUSES = ["pending", "approved", "rejected"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export function submissionFilters(url: URL, taskIds: string[]) {
  const params = url.searchParams;
  const status = SUBMISSION_STATUSES.find((s) => s === params.get("status")) ?? "pending";
  const task = taskIds.find((id) => id === params.get("task")) ?? "";
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const page = Number(params.get("page"));
  return { status, task, q, page: Number.isInteger(page) && page > 0 ? Math.min(page, 10_000) : 1 };
}
