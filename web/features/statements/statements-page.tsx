import { Download, FileText } from "lucide-react";
import { statementPdfPath } from "@/contract/statements";
import { LoadError } from "@/web/components/load-error";
import { MoneyShell } from "@/web/components/money-shell";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useStatementMonths } from "@/web/features/statements/api/find-statement-months";
import { TaxFormList } from "@/web/features/statements/components/tax-form-list";
import { useDocumentTitle } from "@/web/lib/use-document-title";

const MONTH_NAME = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

function monthName(month: string): string {
  return MONTH_NAME.format(new Date(`${month}-15T12:00:00Z`));
}

function StatementList() {
  const months = useStatementMonths();
  if (months.isError) {
    return <LoadError what="your statements" onRetry={() => void months.refetch()} />;
  }
  if (!months.data) {
    return (
      <div className="grid gap-2" aria-hidden>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-14 rounded-lg" />
        ))}
      </div>
    );
  }
  if (months.data.months.length === 0) {
    return (
      <p className="text-sm text-ink-muted">
        No statements yet. Your first one appears once your account is open.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-line rounded-lg border border-line">
      {months.data.months.map((month, index) => (
        <li key={month} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
          <span className="flex min-w-44 flex-1 items-center gap-3">
            <FileText className="size-5 shrink-0 text-brand-700" aria-hidden />
            <span className="grid min-w-0">
              <span className="text-sm font-semibold text-ink">{monthName(month)}</span>
              <span className="text-xs text-ink-muted">
                {index === 0 ? "Month to date" : "Monthly statement"}
              </span>
            </span>
          </span>
          <Button asChild variant="secondary" size="sm">
            {/* Same-origin link: the session cookie goes along and the server answers with an attachment. */}
            <a
              href={statementPdfPath(month)}
              download
              aria-label={`Download PDF statement for ${monthName(month)}`}
            >
              <Download aria-hidden />
              Download PDF
            </a>
          </Button>
        </li>
      ))}
    </ul>
  );
}

/**
 * /statements: one PDF per month, with opening and closing balance, every movement and a ledger digest; and the
 * customer's Forms 1099-INT (decision 070).
 */
export default function StatementsPage() {
  useDocumentTitle("Statements");
  return (
    <MoneyShell title="Statements" tab="/dashboard">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight text-ink">Statements</h1>
        <p className="text-sm text-ink-muted">
          One PDF per calendar month (New York time): opening and closing balance, every movement with its
          running balance, fees, and pending transfers.
        </p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Monthly statements</CardTitle>
        </CardHeader>
        <CardContent>
          <StatementList />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Tax forms</CardTitle>
        </CardHeader>
        <CardContent>
          <TaxFormList />
        </CardContent>
      </Card>
    </MoneyShell>
  );
}
