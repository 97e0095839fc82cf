import { Upload } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import {
  MAX_LIST_UPLOAD_BYTES,
  type RescreenRunView,
  type SanctionsListVersion,
  type UploadListResponse,
} from "@/contract/compliance";
import { LoadErrorNote } from "@/web/components/load-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useListVersions, useUploadList } from "@/web/features/compliance/api/compliance-queries";
import { formatDateTimeWithYear } from "@/web/lib/format";

// New York time with its zone, one rule for every time staff read (docs/architecture.md "Design notes").
const when = (iso: string) => formatDateTimeWithYear(iso);

/** "1 address", "2 addresses": a count with its noun in the right number. */
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a version holds, e.g. "1 entry · 3 names · 1 currency address · SDN.CSV 3f2a…". */
export function describeListVersion(
  v: Pick<SanctionsListVersion, "entryCount" | "nameCount" | "addressCount" | "files">,
) {
  return [
    count(v.entryCount, "entry", "entries"),
    count(v.nameCount, "name", "names"),
    count(v.addressCount, "currency address", "currency addresses"),
    v.files.map((f) => `${f.name} ${f.sha256.slice(0, 12)}…`).join(", "),
  ].join(" · ");
}

const STATES: Record<RescreenRunView["status"], string> = {
  queued: "queued",
  running: "running",
  done: "done",
  superseded: "replaced by a newer list's",
};

/** A re-screen's progress in words, each count with its noun in the right number. */
export function describeRescreen(
  run: Pick<RescreenRunView, "status" | "total" | "customers" | "addresses" | "newHits">,
) {
  const n = (v: number) => v.toLocaleString("en-US");
  const customers =
    run.total === null
      ? "waiting to start"
      : `${n(run.customers)} of ${n(run.total)} ${run.total === 1 ? "customer" : "customers"}`;
  return `Re-screen ${STATES[run.status]}: ${customers} · ${count(run.addresses, "address", "addresses")} · ${count(run.newHits, "new hit", "new hits")}.`;
}

/** The upload's answer: the new version, and its re-screen running in the background. */
export function describeUpload({ message }: Pick<UploadListResponse, "message">) {
  return `${message}. Every customer is being re-screened against it: the progress shows below.`;
}

/** A re-screen's progress bar and words, read out as they change. */
function RescreenProgress({ run }: { run: RescreenRunView }) {
  const total = run.total ?? 0;
  return (
    <span className="grid gap-1">
      {run.status === "running" || run.status === "queued" ? (
        <progress
          className="h-2 w-full max-w-sm accent-brand-600"
          max={Math.max(total, 1)}
          value={run.customers}
          aria-label={`Re-screen of version ${run.listVersion}`}
        />
      ) : null}
      <span role="status" aria-live="polite" className="tabular-nums text-ink-muted">
        {describeRescreen(run)}
      </span>
    </span>
  );
}

/** OFAC's files loaded so far, and the upload of a new set (every file of one publication at once). */
export function ListVersionsCard({ canLoad }: { canLoad: boolean }) {
  const versions = useListVersions();
  const upload = useUploadList();
  const input = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState<{ tone: "ok" | "error"; text: string } | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const files = [...(input.current?.files ?? [])];
    if (files.length === 0)
      return setNote({ tone: "error", text: "Choose SDN.CSV and the files published with it." });
    if (files.reduce((n, f) => n + f.size, 0) > MAX_LIST_UPLOAD_BYTES) {
      return setNote({
        tone: "error",
        text: "The files are larger than 40 MB together: load them with the CLI instead.",
      });
    }
    setNote(null);
    upload.mutateAsync(files).then(
      (res) => setNote({ tone: "ok", text: describeUpload(res) }),
      (err: Error) => setNote({ tone: "error", text: err.message }),
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sanctions lists</CardTitle>
        <CardDescription>
          OFAC's SDN and consolidated files. Each load is a new version; a bad file leaves the active one in
          place.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {canLoad ? (
          <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-3">
            <label className="text-sm text-ink" htmlFor="sanctions-files">
              Files
            </label>
            <input
              ref={input}
              id="sanctions-files"
              type="file"
              multiple
              accept=".csv,.CSV,text/csv"
              className="max-w-full text-sm text-ink-muted"
            />
            <Button type="submit" size="sm" disabled={upload.isPending}>
              <Upload aria-hidden />
              {upload.isPending ? "Loading…" : "Load list"}
            </Button>
          </form>
        ) : null}
        {note ? (
          <p role="status" className={note.tone === "ok" ? "text-sm text-positive" : "text-sm text-negative"}>
            {note.text}
          </p>
        ) : null}
        {versions.isPending ? (
          <Skeleton className="h-16" />
        ) : versions.isError ? (
          <LoadErrorNote what="the list versions" onRetry={() => versions.refetch()} />
        ) : versions.data.items.length === 0 ? (
          <p className="text-sm text-ink-muted">No list loaded yet: nothing is screened until one is.</p>
        ) : (
          <ul className="divide-y divide-line rounded-lg border border-line">
            {versions.data.items.slice(0, 5).map((v) => (
              <li key={v.id} className="grid gap-1 px-4 py-3 text-sm">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-ink">Version {v.version}</span>
                  {v.isActive ? <Badge tone="positive">Active</Badge> : null}
                  <span className="text-ink-muted">
                    {when(v.loadedAt)} · {v.source === "cli" ? "CLI" : "upload"}
                  </span>
                </span>
                <span className="tabular-nums text-ink-muted">{describeListVersion(v)}</span>
                {(() => {
                  const run = versions.data.rescreens.find((r) => r.listId === v.id);
                  return run ? <RescreenProgress run={run} /> : null;
                })()}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
