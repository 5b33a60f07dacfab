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

export type QueueOption = { value: string; label: string };

/**
 * The project's review queues as a filter (`?in=`): its campaigns, its crusades and its
 * standalone tasks. An unknown value means every queue.
 */
export function reviewQueueOptions({
  campaigns,
  crusades,
}: {
  campaigns: { id: string; name: string }[];
  crusades: { id: string; name: string }[];
}): QueueOption[] {
  return [
    ...campaigns.map((c) => ({ value: `campaign:${c.id}`, label: `Campaign: ${c.name}` })),
    ...crusades.map((c) => ({ value: `crusade:${c.id}`, label: `Crusade: ${c.name}` })),
    { value: "standalone", label: "Tasks in no campaign or crusade" },
  ];
}

export function reviewQueueOf(url: URL, options: QueueOption[]) {
  const value = options.find((o) => o.value === url.searchParams.get("in"))?.value ?? "";
  const [kind, id] = value.split(":");
  const scope =
    kind === "campaign"
      ? { campaignId: id! }
      : kind === "crusade"
        ? { crusadeId: id! }
        : kind === "standalone"
          ? { standalone: true as const }
          : { all: true as const };
  return { value, scope };
}
