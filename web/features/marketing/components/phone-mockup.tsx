import { ArrowDownLeft, ArrowUpRight, ChartColumn, Plus, Send, ShoppingBag } from "lucide-react";
import type { ReactNode } from "react";
import { BRAND } from "@/contract/brand";
import { cn } from "@/web/lib/cn";

const SAMPLE_ACTIVITY = [
  {
    name: "Payroll deposit",
    detail: "Today",
    amount: "+$3,200.00",
    tone: "positive",
    icon: <ArrowDownLeft aria-hidden />,
  },
  {
    name: "Corner Market",
    detail: "Yesterday",
    amount: "−$86.40",
    tone: "negative",
    icon: <ShoppingBag aria-hidden />,
  },
  {
    name: "USDC transfer",
    detail: "Pending",
    amount: "−$250.00",
    tone: "pending",
    icon: <ArrowUpRight aria-hidden />,
  },
] as const;

const TONE_CLASS = {
  positive: { amount: "text-positive", icon: "bg-positive-soft text-positive" },
  negative: { amount: "text-negative", icon: "bg-negative-soft text-negative" },
  pending: { amount: "text-pending", icon: "bg-pending-soft text-pending" },
} as const;

/** Weekly spending bars for the mini chart, as fractions of the tallest day. */
const SPENDING_BARS = [0.45, 0.7, 0.35, 0.9, 0.55, 1, 0.6];

/** A phone showing a sample account, drawn in HTML and CSS. Screen readers get one sentence instead. */
export function PhoneMockup({ className }: { className?: string }) {
  return (
    <div
      role="img"
      aria-label={`Sample ${BRAND.name} app screen showing a total balance of $12,480.52 and recent activity`}
      className={cn(
        "relative w-[17.5rem] rounded-[2.75rem] bg-ink p-2.5 shadow-[0_24px_48px_-12px_rgb(8_44_77/0.35)] ring-1 ring-ink/10 sm:w-[18.5rem]",
        className,
      )}
    >
      <div className="overflow-hidden rounded-[2.25rem] bg-canvas">
        <StatusBar />

        <div className="flex flex-col gap-4 px-4 pt-2 pb-5">
          <div className="flex items-center justify-between">
            <div>
              <p className="text-[0.6875rem] text-ink-subtle">Good morning</p>
              <p className="text-sm font-semibold text-ink">Alex Morgan</p>
            </div>
            <span className="flex size-8 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-800">
              AM
            </span>
          </div>

          <div className="rounded-2xl bg-brand-800 p-4 text-white">
            <p className="text-[0.6875rem] font-medium text-brand-100">Total balance</p>
            <p className="mt-1 text-[1.625rem] leading-none font-semibold tracking-tight tabular-nums">
              $12,480.52
            </p>
            <div className="mt-4 grid grid-cols-2 gap-2 border-t border-white/15 pt-3 text-[0.6875rem]">
              <div>
                <p className="text-brand-100">Available</p>
                <p className="font-medium tabular-nums">$12,230.52</p>
              </div>
              <div>
                <p className="text-brand-100">Pending</p>
                <p className="font-medium tabular-nums">$250.00</p>
              </div>
            </div>
          </div>

          <div className="grid grid-cols-3 gap-2">
            <QuickAction icon={<Send aria-hidden />} label="Send" />
            <QuickAction icon={<Plus aria-hidden />} label="Add" />
            <QuickAction icon={<ChartColumn aria-hidden />} label="Insights" />
          </div>

          <div className="rounded-2xl bg-surface p-3 shadow-card">
            <div className="flex items-center justify-between">
              <p className="text-[0.6875rem] font-semibold text-ink">This week</p>
              <p className="text-[0.6875rem] text-ink-subtle tabular-nums">$412.18 spent</p>
            </div>
            <div className="mt-2 flex h-10 items-end gap-1.5">
              {SPENDING_BARS.map((height, index) => (
                <span
                  // biome-ignore lint/suspicious/noArrayIndexKey: a fixed decorative list
                  key={index}
                  className={cn("flex-1 rounded-sm", index === 5 ? "bg-brand-700" : "bg-brand-200")}
                  style={{ height: `${height * 100}%` }}
                />
              ))}
            </div>
          </div>

          <div className="rounded-2xl bg-surface p-3 shadow-card">
            <p className="text-[0.6875rem] font-semibold text-ink">Recent activity</p>
            <ul className="mt-2 flex flex-col divide-y divide-line">
              {SAMPLE_ACTIVITY.map((item) => (
                <li key={item.name} className="flex items-center gap-2.5 py-2 last:pb-0">
                  <span
                    className={cn(
                      "flex size-7 shrink-0 items-center justify-center rounded-full [&_svg]:size-3.5",
                      TONE_CLASS[item.tone].icon,
                    )}
                  >
                    {item.icon}
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-xs font-medium text-ink">{item.name}</span>
                    <span className="block text-[0.625rem] text-ink-subtle">{item.detail}</span>
                  </span>
                  <span
                    className={cn(
                      "text-xs font-semibold whitespace-nowrap tabular-nums",
                      TONE_CLASS[item.tone].amount,
                    )}
                  >
                    {item.amount}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </div>
  );
}

function StatusBar() {
  return (
    <div className="relative flex h-9 items-center justify-between px-6 text-[0.6875rem] font-semibold text-ink">
      <span className="tabular-nums">9:41</span>
      <span className="absolute top-2 left-1/2 h-5 w-20 -translate-x-1/2 rounded-full bg-ink" />
      <span className="flex items-center gap-1">
        <span className="flex items-end gap-px">
          {[1, 2, 3, 4].map((bar) => (
            <span key={bar} className="w-[3px] rounded-[1px] bg-ink" style={{ height: `${bar * 2 + 2}px` }} />
          ))}
        </span>
        <span className="ml-1 flex h-2.5 w-5 items-center rounded-[3px] border border-ink/70 p-px">
          <span className="h-full w-3/4 rounded-[1px] bg-ink" />
        </span>
      </span>
    </div>
  );
}

function QuickAction({ icon, label }: { icon: ReactNode; label: string }) {
  return (
    <div className="flex flex-col items-center gap-1 rounded-xl bg-surface py-2 shadow-card">
      <span className="flex size-7 items-center justify-center rounded-full bg-brand-50 text-brand-700 [&_svg]:size-3.5">
        {icon}
      </span>
      <span className="text-[0.625rem] font-medium text-ink-muted">{label}</span>
    </div>
  );
}
