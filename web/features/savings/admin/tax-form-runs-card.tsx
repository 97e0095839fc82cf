import { Download, FileSpreadsheet, Play } from "lucide-react";
import { canUse } from "@/contract/staff-capabilities";
import type { TaxFormRunStatus } from "@/contract/tax-forms";
import { ListEmpty, ListError, ListHeader, ListSkeleton } from "@/web/components/admin/list-states";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent } from "@/web/components/ui/card";
import { useStartTaxFormRun, useTaxFormRuns } from "@/web/features/savings/admin/api/tax-form-runs";
import { ApiError, hrefOf } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";

const WHEN = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const count = (n: number) => n.toLocaleString("en-US");

/** The latest run: its progress while it works, what it issued once done. */
function LatestRun({ status }: { status: TaxFormRunStatus }) {
  const run = status.runs[0];
  if (!run)
    return (
      <ListEmpty
        icon={FileSpreadsheet}
        title={`No run for ${status.taxYear} yet`}
        text="Once the year is over and its interest credited, a run issues each customer's form."
      />
    );
  const percent = run.total === 0 ? 100 : Math.floor((run.done / run.total) * 100);
  return (
    <div className="grid gap-3 rounded-lg border border-line p-4">
      <p className="flex flex-wrap items-center gap-2 text-sm text-ink">
        <span className="font-medium">{`Run ${run.runNumber} for ${run.taxYear}`}</span>
        <Badge tone={run.status === "done" ? "positive" : "brand"}>
          {run.status === "done" ? "Done" : "Running"}
        </Badge>
      </p>
      {run.status === "running" ? (
        <div className="grid gap-1">
          <div
            role="progressbar"
            aria-label="Customers looked at"
            aria-valuemin={0}
            aria-valuemax={run.total}
            aria-valuenow={run.done}
            className="h-2 overflow-hidden rounded-full bg-brand-50"
          >
            <div className="h-full bg-brand-700" style={{ width: `${percent}%` }} />
          </div>
          <p className="text-xs text-ink-muted">{`${count(run.done)} of ${count(run.total)} customers looked at`}</p>
        </div>
      ) : null}
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div className="grid gap-0.5">
          <dt className="text-xs text-ink-muted">Forms issued</dt>
          <dd className="font-semibold text-ink tabular-nums">{count(run.formsIssued)}</dd>
        </div>
        <div className="grid gap-0.5">
          <dt className="text-xs text-ink-muted">Corrections</dt>
          <dd className="font-semibold text-ink tabular-nums">{count(run.corrections)}</dd>
        </div>
        <div className="grid gap-0.5">
          <dt className="text-xs text-ink-muted">Started</dt>
          <dd className="text-ink">{WHEN.format(new Date(run.startedAt))}</dd>
        </div>
        <div className="grid gap-0.5">
          <dt className="text-xs text-ink-muted">Finished</dt>
          <dd className="text-ink">{run.finishedAt ? WHEN.format(new Date(run.finishedAt)) : "—"}</dd>
        </div>
      </dl>
    </div>
  );
}

/**
 * Form 1099-INT (decision 070) for finance: the last ended year's run, its forms in force and their interest, the
 * button that starts a run (again, for corrections) and the Publication 1220 file.
 */
export function TaxFormRunsCard() {
  const runs = useTaxFormRuns();
  const start = useStartTaxFormRun();
  const { data: me } = useCurrentUser();
  const mayStart = canUse(me?.staffRoles ?? [], "startTaxFormRun");
  const status = runs.data;
  const running = status?.runs[0]?.status === "running";
  return (
    <Card data-slot="tax-form-runs">
      <ListHeader
        title="Form 1099-INT"
        description={
          status
            ? `Tax year ${status.taxYear}: a form for every customer paid $10.00 or more of interest`
            : "The year's tax forms for customers paid $10.00 or more of interest"
        }
        action={
          mayStart && status ? (
            <Button
              size="sm"
              className="self-start"
              disabled={!status.canRun || running || start.isPending}
              onClick={() => start.mutate(status.taxYear)}
            >
              <Play aria-hidden />
              {start.isPending ? "Starting…" : status.runs.length > 0 ? "Run again" : `Run ${status.taxYear}`}
            </Button>
          ) : null
        }
      />
      <CardContent className="grid gap-4">
        {runs.isPending ? (
          <ListSkeleton label="Loading the 1099-INT run" />
        ) : runs.isError || !status ? (
          <ListError what="the 1099-INT run" onRetry={() => runs.refetch()} />
        ) : (
          <>
            {start.error ? (
              <p role="alert" className="text-sm text-negative">
                {start.error instanceof ApiError ? start.error.message : "The run did not start. Try again."}
              </p>
            ) : null}
            {!status.canRun && status.blockedReason ? (
              <p className="text-sm text-ink-muted">{status.blockedReason}</p>
            ) : null}
            <LatestRun status={status} />
            <p className="text-sm text-ink">
              {`${count(status.forms.count)} forms in force for ${status.taxYear}, ${status.forms.interest} of interest`}
              {status.forms.corrected > 0 ? `, ${count(status.forms.corrected)} of them corrected` : ""}.
            </p>
            {status.forms.count > 0 ? (
              <Button asChild size="sm" variant="secondary" className="justify-self-start">
                <a
                  href={hrefOf("GET /api/admin/tax-forms/pub1220", {
                    query: { year: status.taxYear, file: "original" },
                  })}
                  download
                >
                  <Download aria-hidden />
                  Publication 1220 file
                </a>
              </Button>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
