import { ArrowLeft } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Link } from "wouter";
import type { OfacReport } from "@/contract/compliance";
import { bankToday } from "@/contract/kyc";
import { canUse } from "@/contract/staff-capabilities";
import { LoadErrorNote } from "@/web/components/load-error";
import { MAIN_PROPS, SkipLink } from "@/web/components/skip-link";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Container } from "@/web/components/ui/container";
import { Input, inputClassName } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { LogoMark } from "@/web/components/ui/logo";
import { Skeleton } from "@/web/components/ui/skeleton";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import {
  annualReportUrl,
  useFileOfacReport,
  useOfacReports,
} from "@/web/features/compliance/api/regulator-reports";
import { useCurrentUser } from "@/web/lib/current-user";
import { formatShortDate } from "@/web/lib/format";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** A YYYY-MM-DD day at noon UTC: the same calendar day in New York, as formatShortDate reads it. */
const dayText = (day: string) => formatShortDate(`${day}T12:00:00Z`);
const DAY_MS = 24 * 60 * 60 * 1000;
const daysBetween = (from: string, to: string) =>
  Math.round((new Date(`${to}T00:00:00Z`).getTime() - new Date(`${from}T00:00:00Z`).getTime()) / DAY_MS);

const KIND_LABELS: Record<OfacReport["kind"], string> = {
  blocked: "Blocked property (31 CFR 501.603)",
  rejected: "Rejected transaction (31 CFR 501.604)",
};

function DueBadge({ report }: { report: OfacReport }) {
  const today = bankToday();
  const left = daysBetween(today, report.dueOn);
  if (report.filedOn) return <Badge tone="positive">Filed {dayText(report.filedOn)}</Badge>;
  const text =
    left < 0
      ? `Overdue by ${-left} ${left === -1 ? "day" : "days"}`
      : left === 0
        ? "Due today"
        : `Due in ${left} ${left === 1 ? "day" : "days"}`;
  return <Badge tone={left < 0 ? "negative" : left <= 3 ? "pending" : "neutral"}>{text}</Badge>;
}

function FileForm({ report }: { report: OfacReport }) {
  const file = useFileOfacReport();
  const [reference, setReference] = useState("");
  const [filedOn, setFiledOn] = useState(bankToday());
  const [note, setNote] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const refId = useId();
  const dayId = useId();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setNote(null);
    file.mutateAsync({ id: report.id, reference, filedOn }).then(
      (res) => setNote({ tone: "ok", text: res.message }),
      (err: Error) => setNote({ tone: "error", text: err.message }),
    );
  };
  return (
    <form onSubmit={onSubmit} className="grid gap-2 sm:grid-cols-[1fr_auto_auto] sm:items-end">
      <div className="grid gap-1.5">
        <Label htmlFor={refId}>OFAC reference</Label>
        <Input id={refId} value={reference} maxLength={100} onChange={(e) => setReference(e.target.value)} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={dayId}>Filed on</Label>
        <Input
          id={dayId}
          type="date"
          value={filedOn}
          min={report.decidedOn}
          max={bankToday()}
          onChange={(e) => setFiledOn(e.target.value)}
        />
      </div>
      <Button type="submit" size="sm" disabled={file.isPending}>
        Mark filed
      </Button>
      <p
        role="status"
        aria-live="polite"
        className={`sm:col-span-3 ${note?.tone === "error" ? "text-sm text-negative" : "text-sm text-positive"}`}
      >
        {note?.text ?? ""}
      </p>
    </form>
  );
}

function ReportItem({ report }: { report: OfacReport }) {
  return (
    <li className="grid gap-3 px-4 py-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-0.5">
          <span className="font-medium text-ink">{KIND_LABELS[report.kind]}</span>
          <span className="text-sm text-ink">
            <span className="tabular-nums">{report.formattedAmount}</span> from {report.ownerName} to{" "}
            {report.counterpartyName}
          </span>
          <span className="break-all text-xs text-ink-muted">{report.counterpartyAddress}</span>
          <span className="text-xs text-ink-muted">
            {report.listEntries || "No list entry"} · {report.programs || "no program"} · decided{" "}
            {dayText(report.decidedOn)} · due {dayText(report.dueOn)}
          </span>
          <Link
            href={`/admin/compliance/cases/${report.caseId}`}
            className="text-sm text-brand-700 underline-offset-2 hover:underline"
          >
            Open the case
          </Link>
        </div>
        <DueBadge report={report} />
      </div>
      {report.filedOn ? (
        <p className="text-sm text-ink-muted">
          Reference {report.filedReference} · marked by {report.filedBy ?? "a former member"}
        </p>
      ) : (
        <FileForm report={report} />
      )}
    </li>
  );
}

function OfacReportsCard() {
  const [status, setStatus] = useState<"due" | "filed">("due");
  const reports = useOfacReports(status);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle>OFAC reports</CardTitle>
          <CardDescription>
            Each blocked or sanctions-rejected transfer is reported to OFAC within 10 business days of the
            decision. Overdue reports come first.
          </CardDescription>
        </div>
        <fieldset className="flex gap-1" aria-label="Which reports">
          {(["due", "filed"] as const).map((s) => (
            <Button
              key={s}
              size="sm"
              variant={status === s ? "primary" : "ghost"}
              aria-pressed={status === s}
              onClick={() => setStatus(s)}
            >
              {s === "due" ? "Due" : "Filed"}
            </Button>
          ))}
        </fieldset>
      </CardHeader>
      <CardContent>
        {reports.isPending ? (
          <Skeleton className="h-24" />
        ) : reports.isError ? (
          <LoadErrorNote what="the reports" onRetry={() => reports.refetch()} />
        ) : reports.data.items.length === 0 ? (
          <p className="text-sm text-ink-muted">
            {status === "due" ? "No OFAC report is due." : "No report has been marked filed yet."}
          </p>
        ) : (
          <ul
            aria-label={status === "due" ? "Reports due" : "Reports filed"}
            className="divide-y divide-line rounded-lg border border-line"
          >
            {reports.data.items.map((r) => (
              <ReportItem key={r.id} report={r} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function AnnualReportCard() {
  const reports = useOfacReports("due");
  const thisYear = Number(bankToday().slice(0, 4));
  const [year, setYear] = useState(thisYear);
  const id = useId();
  const annual = reports.data?.annual;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Annual report of blocked property</CardTitle>
        <CardDescription>
          Every item blocked and still held as of June 30, due to OFAC by September 30 (31 CFR 501.603(b)(2)).
          {annual ? ` The next one: as of ${dayText(annual.asOf)}, due ${dayText(annual.dueOn)}.` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor={id}>As of June 30 of</Label>
          <select
            id={id}
            className={inputClassName}
            value={year}
            onChange={(e) => setYear(Number(e.target.value))}
          >
            {Array.from({ length: 6 }, (_, i) => thisYear - i).map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
        <Button asChild size="sm" variant="secondary">
          <a href={annualReportUrl(year)} download>
            Download CSV
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}

/** /admin/compliance/reports: the OFAC reports due and filed, and the annual blocked-property report. */
export function ReportsDuePage() {
  const { data: user, isPending } = useCurrentUser();
  useDocumentTitle("Reports due");
  if (isPending) return <FullScreenSpinner />;
  const allowed = canUse(user?.staffRoles ?? [], "complianceDesk");
  return (
    <div className="min-h-dvh bg-canvas">
      <SkipLink />
      <header className="border-b border-line bg-surface">
        <Container className="flex h-16 items-center justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            <LogoMark />
            <div className="min-w-0">
              <h1 className="truncate text-base font-semibold text-ink">Reports due</h1>
              <p className="hidden truncate text-xs text-ink-muted sm:block">
                What OFAC must be told, and when
              </p>
            </div>
          </div>
          <Button asChild variant="secondary" size="sm">
            <Link href="/admin/compliance">
              <ArrowLeft aria-hidden />
              <span className="hidden sm:inline">Back to compliance</span>
              <span className="sm:hidden">Back</span>
            </Link>
          </Button>
        </Container>
      </header>
      <main {...MAIN_PROPS} className="focus-visible:outline-none">
        <Container className="grid gap-6 py-8">
          {allowed ? (
            <>
              <OfacReportsCard />
              <AnnualReportCard />
            </>
          ) : (
            <p className="text-sm text-ink-muted">Your staff role does not include compliance.</p>
          )}
        </Container>
      </main>
    </div>
  );
}
