import { Download, FileText } from "lucide-react";
import type { StatementList } from "@/contract/statements";
import { LoadError } from "@/web/components/load-error";
import { MoneyShell } from "@/web/components/money-shell";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useStatementMonths } from "@/web/features/statements/api/find-statement-months";
import { TaxFormList } from "@/web/features/statements/components/tax-form-list";
import { hrefOf } from "@/web/lib/api";
import { useDocumentTitle } from "@/web/lib/use-document-title";

const MONTH_NAME = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

function monthName(month: string): string {
  return MONTH_NAME.format(new Date(`${month}-15T12:00:00Z`));
}

interface StatementRow {
  key: string;
  kind: "Checking" | "Savings";
  month: string;
  note: string;
  href: string;
  label: string;
}

/** Checking's months and the savings statements in one list, newest month first, checking before savings. */
function statementRows(list: StatementList): StatementRow[] {
  const current = list.months[0];
  const rows: StatementRow[] = [
    ...list.months.map((month) => ({
      key: `checking-${month}`,
      kind: "Checking" as const,
      month,
      note: month === current ? "Month to date" : "Monthly statement",
      href: hrefOf("GET /api/statements/:month.pdf", { params: { month } }),
      label: `Download PDF statement for ${monthName(month)}, Checking`,
    })),
    ...list.savings.map(({ accountId, month }) => ({
      key: `savings-${accountId}-${month}`,
      kind: "Savings" as const,
      month,
      note: "Interest earned and APY earned",
      href: hrefOf("GET /api/statements/savings/:accountId/:month.pdf", { params: { accountId, month } }),
      label: `Download PDF savings statement for ${monthName(month)}`,
    })),
  ];
  // A stable sort: within a month, checking (listed first) stays before savings.
  return rows.sort((a, b) => (a.month < b.month ? 1 : a.month > b.month ? -1 : 0));
}

function StatementRows() {
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
  const rows = statementRows(months.data);
  if (rows.length === 0) {
    return (
      <p className="text-sm text-ink-muted">
        No statements yet. Your first one appears once your account is open.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-line rounded-lg border border-line">
      {rows.map((row) => {
        return (
          <li key={row.key} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <span className="flex min-w-44 flex-1 items-center gap-3">
              <FileText className="size-5 shrink-0 text-brand-700" aria-hidden />
              <span className="grid min-w-0 gap-0.5">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="text-sm font-semibold text-ink">{monthName(row.month)}</span>
                  <Badge tone={row.kind === "Savings" ? "brand" : "neutral"}>{row.kind}</Badge>
                </span>
                <span className="text-xs text-ink-muted">{row.note}</span>
              </span>
            </span>
            <Button asChild variant="secondary" size="sm">
              {/* Same-origin link: the session cookie goes along and the server answers with an attachment. */}
              <a href={row.href} download aria-label={row.label}>
                <Download aria-hidden />
                Download PDF
              </a>
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * /statements: one PDF per month for checking, and for savings once the month's interest is paid; and the
 * customer's Forms 1099-INT (decision 070).
 */
export default function StatementsPage() {
  useDocumentTitle("Statements");
  return (
    <MoneyShell title="Statements" tab="/dashboard">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight text-ink">Statements</h1>
        <p className="text-sm text-ink-muted">
          One PDF per calendar month (New York time). Checking: opening and closing balance, every movement
          with its running balance, fees, and pending transfers. Savings: every move, the interest earned and
          the Annual Percentage Yield Earned, ready once the month's interest is paid.
        </p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Monthly statements</CardTitle>
        </CardHeader>
        <CardContent>
          <StatementRows />
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
