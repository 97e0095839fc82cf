import type { AdminUser } from "@/contract/admin";
import type { DashboardContentField } from "@/contract/dashboard-content-fields";
import { DashboardOverview } from "@/web/components/dashboard/dashboard-overview";
import { useOnboarding } from "@/web/features/kyc/admin/api/get-onboarding";

type Texts = Record<DashboardContentField, string>;

/**
 * The customer's dashboard as they see it, drawn by the same component with the draft texts and the
 * customer's real balances and onboarding state, so every keystroke shows exactly where it lands.
 */
export function DashboardPreview({ texts, user }: { texts: Texts; user: AdminUser }) {
  const onboarding = useOnboarding(user.id);
  return (
    <section
      className="grid gap-4 rounded-card border border-line bg-canvas p-3 text-ink sm:p-4"
      aria-label="Dashboard preview"
    >
      <DashboardOverview
        isPreview
        firstName={user.firstName}
        texts={texts}
        balances={{
          status: "ready",
          data: {
            total: user.accountBalance,
            available: user.availableBalance,
            pending: user.pendingBalance,
            hasPending: user.pendingBalance !== "$0.00",
          },
        }}
        onboarding={
          onboarding.data
            ? { status: "ready", data: onboarding.data }
            : onboarding.isError
              ? { status: "error", retry: () => void onboarding.refetch() }
              : { status: "loading" }
        }
      />
      {/* The sections below show the customer's own actions and transactions; only their titles are editable. */}
      {[
        { key: "actions", title: texts.quickActionTitle, note: "Send Money, Pay Bills, Analytics, Settings" },
        { key: "transactions", title: texts.transactionTitle, note: "The customer's own transactions" },
      ].map((section) => (
        <div key={section.key} className="rounded-card border border-line bg-surface p-4 shadow-card">
          <h3 className="text-base font-semibold">{section.title}</h3>
          <p className="mt-1 text-xs text-ink-subtle">{section.note}</p>
        </div>
      ))}
    </section>
  );
}
