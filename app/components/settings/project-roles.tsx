import { LocalTime } from "~/components/campaigns/local-time";
import { Badge } from "~/components/ui/badge";

type RoleGrant = {
  id: number;
  roleName: string;
  projectName: string;
  guildName: string | null;
  want: "held" | "removed";
  state: "pending" | "done" | "failed";
  reason: string;
  lastError: string | null;
  confirmedAt: Date | string | null;
};

/** The roles projects' Discord bots gave the member, are giving, or took back, and why, in the words the job recorded. */
export function ProjectRoles({ roles }: { roles: RoleGrant[] }) {
  return (
    <section aria-labelledby="project-roles-heading" className="grid gap-2">
      <h3 id="project-roles-heading" className="text-sm font-semibold">
        Roles from projects
      </h3>
      <ul className="grid gap-2">
        {roles.map((role) => {
          const held = role.want === "held";
          const confirmed = role.state === "done";
          return (
            <li key={role.id} className="grid gap-1 rounded-lg border p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  <span className="font-medium">{role.roleName}</span> in {role.guildName || role.projectName}
                  <span className="text-muted-foreground"> · {role.projectName}</span>
                </span>
                <Badge variant={held && confirmed ? "secondary" : "outline"}>
                  {held ? (confirmed ? "Given" : "Being given") : confirmed ? "Taken back" : "Being taken back"}
                </Badge>
              </div>
              <p className="text-muted-foreground">
                {role.reason}
                {confirmed && role.confirmedAt && (
                  <>
                    {" "}
                    · Discord confirmed <LocalTime value={role.confirmedAt} />
                  </>
                )}
              </p>
              {!confirmed && role.lastError && <p className="text-amber-700 dark:text-amber-300">{role.lastError}</p>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
