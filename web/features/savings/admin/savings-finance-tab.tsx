import { Coins } from "lucide-react";
import type { InterestPeriod, SavingsFinance } from "@/contract/savings-admin";
import { ListEmpty, ListError, ListHeader, ListSkeleton } from "@/web/components/admin/list-states";
import { Card, CardContent } from "@/web/components/ui/card";
import { useSavingsFinance } from "@/web/features/savings/admin/api/get-savings-finance";
import { SavingsRatesCard } from "@/web/features/savings/admin/savings-rates-card";
import { TaxFormRunsCard } from "@/web/features/savings/admin/tax-form-runs-card";

const MONTH = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const monthName = (first: string) => MONTH.format(new Date(`${first}T00:00:00Z`));
const dayName = (day: string) => DAY.format(new Date(`${day}T00:00:00Z`));
const count = (n: number) => n.toLocaleString("en-US");

function Figure({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className="grid min-w-0 gap-1 rounded-lg border border-line p-4">
      <dt className="text-xs text-ink-muted">{label}</dt>
      <dd className="text-xl font-semibold text-ink tabular-nums">{value}</dd>
      <dd className="text-xs text-ink-muted">{note}</dd>
    </div>
  );
}

/** Deposits by product and next month's interest expense, from the ledger's balances. */
function Deposits({ data }: { data: SavingsFinance }) {
  const { checking, savings } = data.deposits;
  const total = checking.total.cents + savings.total.cents;
  const f = data.forecast;
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
      <Figure
        label="Checking deposits"
        value={checking.total.amount}
        note={`${count(checking.accounts)} accounts`}
      />
      <Figure
        label="Savings deposits"
        value={savings.total.amount}
        note={`${count(savings.accounts)} open accounts`}
      />
      <Figure
        label="Savings share of deposits"
        value={total > 0 ? `${((savings.total.cents / total) * 100).toFixed(1)}%` : "—"}
        note="Of checking and savings together"
      />
      <Figure
        label={`Interest expense forecast, ${monthName(f.month)}`}
        value={f.expense.amount}
        note={`${f.balance.amount} held ${f.days} days at ${f.rates.map((r) => `${r.apy} from ${dayName(r.from)}`).join(", ")}`}
      />
    </dl>
  );
}

/** Interest accrued (below the cent until credited, shown rounded down) and paid, per period. */
function PeriodTable({
  caption,
  periods,
  label,
}: {
  caption: string;
  periods: InterestPeriod[];
  label: (on: string) => string;
}) {
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-line text-xs text-ink-muted">
          <th scope="col" className="py-2 text-left font-normal">
            Period
          </th>
          <th scope="col" className="py-2 text-right font-normal">
            Accrued
          </th>
          <th scope="col" className="py-2 text-right font-normal">
            Paid
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {periods.map((p) => (
          <tr key={p.on}>
            <th scope="row" className="py-2 text-left font-medium text-ink">
              {label(p.on)}
            </th>
            <td className="py-2 text-right text-ink tabular-nums">{p.accrued}</td>
            <td className="py-2 text-right text-ink tabular-nums">{p.paid.amount}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Interest({ data }: { data: SavingsFinance }) {
  if (data.months.length === 0)
    return (
      <ListEmpty
        icon={Coins}
        title="No interest yet"
        text="Each New York day's accrual and each month's credit show here once savings hold money."
      />
    );
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section className="grid content-start gap-2" aria-labelledby="interest-months">
        <h3 id="interest-months" className="text-sm font-medium text-ink">
          By month
        </h3>
        <PeriodTable caption="Savings interest by month" periods={data.months} label={monthName} />
      </section>
      <section className="grid content-start gap-2" aria-labelledby="interest-days">
        <h3 id="interest-days" className="text-sm font-medium text-ink">
          By day (last 31 days)
        </h3>
        <PeriodTable caption="Savings interest by day" periods={data.days} label={dayName} />
      </section>
    </div>
  );
}

/**
 * The Savings tab of the back office (decision 071; finance and owners): deposits by product, interest
 * accrued and paid by day and month, next month's expense forecast, the rate and its history, the 1099-INT run.
 */
export default function SavingsFinanceTab() {
  const finance = useSavingsFinance();
  return (
    <div className="grid gap-6">
      <Card>
        <ListHeader
          title="Deposits and interest"
          description="From the ledger's balances and the daily accrual; paid interest is credited on each month's last day"
        />
        <CardContent className="grid gap-6">
          {finance.isPending ? (
            <ListSkeleton label="Loading the savings figures" />
          ) : finance.isError ? (
            <ListError what="savings figures" onRetry={() => finance.refetch()} />
          ) : (
            <>
              <Deposits data={finance.data} />
              <Interest data={finance.data} />
            </>
          )}
        </CardContent>
      </Card>
      <SavingsRatesCard />
      <TaxFormRunsCard />
    </div>
  );
}
