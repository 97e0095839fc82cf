import {
  Area,
  AreaChart,
  CartesianGrid,
  Cell,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatMoney } from "@/contract/money";
import type { CategorySlice } from "@/web/features/accounts/analytics-summary";
import { type BalancePoint, balancePointHeading } from "@/web/features/accounts/balance-history";

// Recharts is imported only here; the analytics page loads this module lazily so no other screen pays for it.

const BRAND_LINE = "#1f6fb2";
// Exact amounts everywhere: "$2.3K" for $2,250.00 rounded a customer's money.
const axisMoney = (cents: number) => formatMoney(Math.round(cents));

/** The balance history area chart; the tooltip reads 'Balance' and the dollar amount. */
export function BalanceHistoryChart({ points }: { points: BalancePoint[] }) {
  return (
    <div className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <defs>
            <linearGradient id="balance-fill" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={BRAND_LINE} stopOpacity={0.25} />
              <stop offset="100%" stopColor={BRAND_LINE} stopOpacity={0.02} />
            </linearGradient>
          </defs>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={false} />
          <YAxis
            dataKey="balanceCents"
            // At least $0–$100, so a zero balance still gets a readable axis instead of five "$0" ticks.
            domain={[0, (dataMax: number) => Math.max(dataMax, 10_000)]}
            allowDecimals={false}
            tickFormatter={axisMoney}
            tick={{ fontSize: 12, fill: "#64748b" }}
            tickLine={false}
            axisLine={false}
            width={88}
          />
          <Tooltip
            separator=": "
            labelFormatter={(label, payload) => {
              const point = payload?.[0]?.payload as BalancePoint | undefined;
              return point ? balancePointHeading(point) : String(label);
            }}
            formatter={(value) => [formatMoney(Number(value)), "Balance"]}
            contentStyle={{ borderRadius: 8, borderColor: "#e2e8f0", fontSize: 13 }}
          />
          <Area
            type="monotone"
            dataKey="balanceCents"
            name="Balance"
            stroke={BRAND_LINE}
            strokeWidth={2}
            fill="url(#balance-fill)"
            isAnimationActive={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}

/** The spending donut, inner radius 60 and outer 100, in the categories' colours; tooltip 'Amount'. */
export function SpendingDonut({ slices }: { slices: CategorySlice[] }) {
  return (
    <div className="grid items-center gap-4 sm:grid-cols-[13rem_1fr]">
      <div className="mx-auto size-52">
        <PieChart width={208} height={208}>
          <Pie
            data={slices}
            dataKey="cents"
            nameKey="label"
            cx="50%"
            cy="50%"
            innerRadius={60}
            outerRadius={100}
            paddingAngle={slices.length > 1 ? 1 : 0}
            isAnimationActive={false}
          >
            {slices.map((slice) => (
              <Cell key={slice.key} fill={slice.color} stroke={slices.length > 1 ? "#ffffff" : slice.color} />
            ))}
          </Pie>
          <Tooltip
            separator=": "
            formatter={(value, _name, item) => [
              `${formatMoney(Number(value))} (${item.payload.label})`,
              "Amount",
            ]}
            contentStyle={{ borderRadius: 8, borderColor: "#e2e8f0", fontSize: 13 }}
          />
        </PieChart>
      </div>
      <ul className="grid gap-2 text-sm">
        {slices.map((slice) => (
          <li key={slice.key} className="flex items-center gap-2">
            <span
              aria-hidden
              className="size-3 shrink-0 rounded-full"
              style={{ backgroundColor: slice.color }}
            />
            <span className="min-w-0 flex-1 truncate text-ink">{slice.label}</span>
            <span className="text-ink-muted tabular-nums">−{formatMoney(slice.cents)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
