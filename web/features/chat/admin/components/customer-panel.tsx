import type { ReactNode } from "react";
import type { ChatCustomer } from "@/contract/chat";
import { LoadError } from "@/web/components/admin/list-states";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useChatCustomer } from "@/web/features/chat/admin/api/get-chat-customer";
import { cn } from "@/web/lib/cn";
import { formatDate, formatDateTime, formatHandle } from "@/web/lib/format";
import { PhoneNumber } from "@/web/lib/phone-display";

type Tone = NonNullable<BadgeProps["tone"]>;

const KYC_BADGES: Record<NonNullable<ChatCustomer["kycStatus"]>, { label: string; tone: Tone }> = {
  approved: { label: "Verified", tone: "positive" },
  pending: { label: "Pending Review", tone: "pending" },
  rejected: { label: "Rejected", tone: "negative" },
};

const REQUEST_BADGES: Record<
  NonNullable<ChatCustomer["accountRequestStatus"]>,
  { label: string; tone: Tone }
> = {
  pending: { label: "Pending", tone: "pending" },
  in_review: { label: "In Review", tone: "pending" },
  approved: { label: "Approved", tone: "positive" },
  rejected: { label: "Rejected", tone: "negative" },
};

/** `stacked` puts a long value (an e-mail) under its label instead of squeezing it beside it. */
function Row({
  label,
  stacked = false,
  children,
}: {
  label: string;
  stacked?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={stacked ? "grid gap-0.5" : "flex items-baseline justify-between gap-3"}>
      <dt className="shrink-0 text-xs text-ink-muted">{label}</dt>
      <dd
        className={cn(
          "min-w-0 text-sm font-medium break-words text-ink",
          stacked ? "[overflow-wrap:anywhere]" : "text-right",
        )}
      >
        {children}
      </dd>
    </div>
  );
}

function PanelSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2">
      <h4 className="text-xs font-semibold tracking-wide text-ink-subtle uppercase">{title}</h4>
      {children}
    </section>
  );
}

/** Who support is talking to: enough to answer most questions without leaving the chat. */
export function CustomerPanel({ userId }: { userId: string }) {
  const customer = useChatCustomer(userId);

  if (customer.isPending) {
    return (
      <div className="grid gap-3">
        <span className="sr-only" role="status">
          Loading customer
        </span>
        <Skeleton className="h-5 w-32" />
        <Skeleton className="h-4 w-48" />
        <Skeleton className="h-4 w-40" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (customer.isError) {
    return <LoadError onRetry={() => customer.refetch()}>We couldn't load this customer.</LoadError>;
  }

  const c = customer.data;
  const kyc = c.kycStatus ? KYC_BADGES[c.kycStatus] : { label: "Not Started", tone: "neutral" as const };
  const request = c.accountRequestStatus
    ? REQUEST_BADGES[c.accountRequestStatus]
    : { label: "Not Started", tone: "neutral" as const };

  return (
    <div className="grid gap-5">
      <PanelSection title="Customer">
        <dl className="grid gap-1.5">
          <Row label="Name">
            {c.firstName} {c.lastName}
          </Row>
          <Row label="Email" stacked>
            {c.email}
          </Row>
          <Row label="Tag">{formatHandle(c.pillarTag)}</Row>
          <Row label="Phone">
            <span className="tabular-nums">
              {c.phoneNumber ? <PhoneNumber stored={c.phoneNumber} /> : "Not added"}
            </span>
          </Row>
          <Row label="Member since">{formatDate(c.memberSince)}</Row>
        </dl>
      </PanelSection>
      <PanelSection title="Onboarding">
        <dl className="grid gap-1.5">
          <Row label="KYC">
            <Badge tone={kyc.tone}>{kyc.label}</Badge>
          </Row>
          <Row label="Account request">
            <Badge tone={request.tone}>{request.label}</Badge>
          </Row>
        </dl>
      </PanelSection>
      <PanelSection title="Balances">
        <dl className="grid gap-1.5">
          <Row label="Total">
            <span className="tabular-nums">{c.totalBalance}</span>
          </Row>
          <Row label="Available">
            <span className="tabular-nums">{c.availableBalance}</span>
          </Row>
          <Row label="Pending">
            <span className="tabular-nums">{c.pendingBalance}</span>
          </Row>
        </dl>
      </PanelSection>
      <PanelSection title="Last transfers">
        {c.recentTransfers.length === 0 ? (
          <p className="text-sm text-ink-muted">No transfers yet</p>
        ) : (
          <ul className="grid gap-2">
            {c.recentTransfers.map((t) => (
              <li key={t.id} className="grid gap-0.5 rounded-lg border border-line px-3 py-2">
                <span className="flex items-baseline justify-between gap-2 text-sm">
                  <span className="truncate text-ink">{t.recipientName}</span>
                  <span className="shrink-0 font-medium text-ink tabular-nums">-{t.amount}</span>
                </span>
                <span className="flex items-center justify-between gap-2 text-xs text-ink-muted">
                  <span>{formatDateTime(t.createdAt)}</span>
                  <span className="capitalize">{t.status}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </PanelSection>
    </div>
  );
}
