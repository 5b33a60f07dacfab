import { formatUtc } from "~/components/leaderboards/format";

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A field name in words: `fundingTx` and `funding_tx` read "funding tx". */
const words = (key: string) =>
  key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replaceAll("_", " ")
    .toLowerCase();

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-muted-foreground">—</span>;
  if (typeof value === "string") return <span className="font-mono text-xs break-all">{ISO_TIME.test(value) ? formatUtc(value) : value}</span>;
  if (typeof value !== "object") return <span className="font-mono text-xs">{String(value)}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-muted-foreground">none</span>;
    const shown = value.slice(0, 50);
    return (
      <ul className="grid gap-1">
        {shown.map((v, i) => (
          <li key={i} className="min-w-0">
            <Value value={v} />
          </li>
        ))}
        {value.length > shown.length && <li className="text-xs text-muted-foreground">and {value.length - shown.length} more</li>}
      </ul>
    );
  }
  return <EvidenceList evidence={value as Record<string, unknown>} nested />;
}

function EvidenceList({ evidence, nested = false }: { evidence: Record<string, unknown>; nested?: boolean }) {
  const entries = Object.entries(evidence);
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">No details recorded beyond the summary.</p>;
  return (
    <dl className={nested ? "grid gap-1 rounded-md border p-2" : "grid gap-2 sm:grid-cols-[auto_1fr] sm:gap-x-4"}>
      {entries.map(([key, value]) => (
        <div key={key} className="grid min-w-0 gap-0.5 sm:contents">
          <dt className="text-xs font-medium text-muted-foreground capitalize">{words(key)}</dt>
          <dd className="min-w-0">
            <Value value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** What the cluster's members share, as the scoring recorded it (with members outside the project left out). */
export function ClusterEvidence({ evidence }: { evidence: unknown }) {
  if (!evidence || typeof evidence !== "object" || Array.isArray(evidence)) return <Value value={evidence} />;
  return <EvidenceList evidence={evidence as Record<string, unknown>} />;
}
