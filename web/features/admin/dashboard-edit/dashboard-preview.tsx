import { BarChart3, CreditCard, FileClock, Receipt, Send, Settings } from "lucide-react";
import type { AdminUser } from "@/contract/admin";
import type { DashboardContentField } from "@/contract/dashboard-content";

type Texts = Record<DashboardContentField, string>;

const QUICK_ACTIONS = [
  { label: "Send Money", icon: Send },
  { label: "Pay Bills", icon: Receipt },
  { label: "Analytics", icon: BarChart3 },
  { label: "Settings", icon: Settings },
] as const;

/**
 * A small stand-in for the customer's dashboard, drawn from the draft texts so every keystroke shows where
 * it lands. It mirrors the dashboard's layout without importing it (features stay independent).
 */
export function DashboardPreview({ texts, user }: { texts: Texts; user: AdminUser }) {
  return (
    <section
      className="grid gap-3 rounded-card border border-line bg-canvas p-3 text-ink sm:p-4"
      aria-label="Dashboard preview"
    >
      <div className="grid gap-0.5">
        <p className="text-base font-semibold">
          {texts.welcomeTitle} <span className="text-ink-muted">{user.firstName}</span>
        </p>
        <p className="text-xs text-ink-muted">{texts.welcomeMessage}</p>
      </div>

      <div className="grid gap-3 rounded-lg border border-line bg-surface p-3 shadow-card">
        <div className="grid gap-0.5">
          <p className="text-xs font-medium text-ink-muted">{texts.balanceLabel}</p>
          <p className="text-2xl font-semibold tracking-tight tabular-nums">{user.accountBalance}</p>
        </div>
        <dl className="grid grid-cols-2 gap-3 border-t border-line pt-2">
          <div className="grid gap-0.5">
            <dt className="text-[11px] text-ink-muted">{texts.availableLabel}</dt>
            <dd className="text-sm font-semibold tabular-nums">{user.availableBalance}</dd>
          </div>
          <div className="grid gap-0.5">
            <dt className="text-[11px] text-ink-muted">{texts.pendingLabel}</dt>
            <dd className="text-sm font-semibold tabular-nums">{user.pendingBalance}</dd>
          </div>
        </dl>
        <div className="flex min-h-24 flex-col justify-between rounded-lg bg-gradient-to-br from-brand-700 to-brand-900 p-3 text-white">
          <div className="flex items-start justify-between gap-2">
            <CreditCard className="size-5 text-brand-100" aria-hidden />
            <span className="rounded-full bg-white/15 px-2 py-0.5 text-[10px] font-medium">
              Cards Coming Soon
            </span>
          </div>
          <div className="grid gap-0.5">
            <p className="font-mono text-xs tracking-widest text-brand-100 tabular-nums">
              {texts.cardNumber}
            </p>
            <p className="truncate text-xs font-semibold">{texts.cardName}</p>
          </div>
        </div>
      </div>

      <div className="flex items-start gap-2 rounded-lg border border-line bg-surface p-3 shadow-card">
        <FileClock className="mt-0.5 size-4 shrink-0 text-pending" aria-hidden />
        <div className="grid min-w-0 gap-0.5">
          <p className="text-sm font-semibold">{texts.statusTitle}</p>
          <p className="text-xs text-ink-muted">{texts.statusMessage}</p>
        </div>
      </div>

      <div className="grid gap-2 rounded-lg border border-line bg-surface p-3 shadow-card">
        <p className="text-sm font-semibold">{texts.quickActionTitle}</p>
        <div className="grid grid-cols-4 gap-1.5">
          {QUICK_ACTIONS.map(({ label, icon: Icon }) => (
            <div
              key={label}
              className="grid justify-items-center gap-1 rounded-md bg-canvas px-1 py-2 text-center"
            >
              <Icon className="size-4 text-brand-600" aria-hidden />
              <span className="text-[10px] leading-tight text-ink-muted">{label}</span>
            </div>
          ))}
        </div>
      </div>

      <div className="grid gap-2 rounded-lg border border-line bg-surface p-3 shadow-card">
        <p className="text-sm font-semibold">{texts.transactionTitle}</p>
        {[
          { label: "Payroll deposit", amount: "+$2,450.00", className: "text-positive" },
          { label: "Coffee Corner", amount: "−$6.40", className: "text-negative" },
        ].map((row) => (
          <div key={row.label} className="flex items-center justify-between gap-2 text-xs">
            <span className="text-ink-muted">{row.label}</span>
            <span className={`font-medium tabular-nums ${row.className}`}>{row.amount}</span>
          </div>
        ))}
        <p className="text-[10px] text-ink-subtle">Sample rows; the customer sees their own transactions.</p>
      </div>
    </section>
  );
}
