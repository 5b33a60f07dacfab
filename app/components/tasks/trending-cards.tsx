import { TaskCard, type MemberState, type TaskCardData } from "./task-card";

export type TrendingTask = {
  task: TaskCardData;
  project: { slug: string; name: string; logoUrl: string | null };
  /** Completions in the last 24 hours. */
  recent: number;
  state: MemberState;
};

/** Tasks with the most completions in the last 24 hours, as a grid of cards. */
export function TrendingCards({ tasks, now }: { tasks: TrendingTask[]; now: Date }) {
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {tasks.map(({ task, project, recent, state }) => (
        <li key={task.id}>
          <TaskCard task={task} project={project} recent={recent} state={state} now={now} />
        </li>
      ))}
    </ul>
  );
}
