import { Link } from "react-router";
import { UserAvatar } from "~/components/ui/avatar";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { route } from "~/lib/routes";
import { nextStarAt, Stars } from "./stars";

export type StarboardRow = { id: string; slug: string; name: string; logoUrl: string | null; xp: number; stars: number };

/** The member's stars per project, with the XP that brings the next one. */
export function StarboardTable({ rows }: { rows: StarboardRow[] }) {
  return (
    <Table>
      <caption className="sr-only">Your stars per project</caption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Project</TableHead>
          <TableHead scope="col">Stars</TableHead>
          <TableHead scope="col" className="text-right">
            XP
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => {
          const next = nextStarAt(row.xp);
          return (
            <TableRow key={row.id}>
              <TableCell className="max-w-0 w-full">
                <Link to={route("projects.show", { project: row.slug })} className="flex min-w-0 items-center gap-2 font-medium hover:underline">
                  <UserAvatar name={row.name} image={row.logoUrl} className="hidden rounded-md sm:inline-flex" />
                  <span className="min-w-0 wrap-break-word">{row.name}</span>
                </Link>
              </TableCell>
              <TableCell>
                <div className="grid gap-1">
                  <Stars count={row.stars} />
                  <span className="text-xs whitespace-nowrap text-muted-foreground">
                    {next === null ? "All stars earned" : `Next at ${next.toLocaleString("en")} XP`}
                  </span>
                </div>
              </TableCell>
              <TableCell className="text-right font-mono whitespace-nowrap tabular-nums">{row.xp.toLocaleString("en")}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
