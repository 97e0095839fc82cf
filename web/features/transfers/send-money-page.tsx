import { Lock } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "wouter";
import { formatMoney } from "@/contract/money";
import { DAILY_LIMIT_CENTS, type TransferRequest } from "@/contract/transfers";
import { BlockedCard } from "@/web/components/blocked-card";
import { LoadError } from "@/web/components/load-error";
import { MoneyShell } from "@/web/components/money-shell";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useTransferLimits } from "@/web/features/transfers/api/get-transfer-limits";
import { useSelfLimits } from "@/web/features/transfers/api/self-limits";
import { TransferForm } from "@/web/features/transfers/components/transfer-form";
import { TransferSuccess } from "@/web/features/transfers/components/transfer-success";
import { useAccountSummary } from "@/web/lib/account-summary";
import { canSendMoney, SEND_MONEY_BLOCKED } from "@/web/lib/send-money-gate";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** Today's use of the lower of the bank's limit and the customer's own, which is what the next send may take. */
function LimitsCard() {
  const limits = useTransferLimits();
  const used = limits.data?.usedTodayCents ?? 0;
  const limit = limits.data?.effectiveDailyLimitCents ?? DAILY_LIMIT_CENTS;
  const percent = Math.min(100, Math.round((used / limit) * 100));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Daily limit</CardTitle>
        <CardDescription>Up to {formatMoney(DAILY_LIMIT_CENTS)} a day (New York time).</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {limits.isPending ? (
          <Skeleton className="h-12 w-full" />
        ) : limits.isError ? (
          <p className="text-sm text-ink-muted">
            We couldn't load today's usage; the limit is still checked when you send.
          </p>
        ) : (
          <>
            <p className="text-2xl font-semibold text-ink tabular-nums">
              {limits.data.effectiveRemainingToday}
            </p>
            <p className="-mt-2 text-xs text-ink-muted">remaining today</p>
            <div
              className="h-2 overflow-hidden rounded-full bg-brand-50"
              role="progressbar"
              aria-label="Daily limit used"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
            >
              <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
            </div>
            <p className="text-xs text-ink-muted tabular-nums">
              {limits.data.usedToday} used of {limits.data.effectiveDailyLimit}
            </p>
            {limits.data.ownDailyLimit ? (
              <p className="text-xs text-ink tabular-nums">
                Your own limit: {limits.data.ownDailyLimit} a day.{" "}
                <Link href="/settings#sending-limits" className="underline">
                  Settings
                </Link>
              </p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function HowItWorks() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>How it works</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid list-disc gap-2 pl-5 text-sm text-ink-muted">
          <li>The amount is held from your available balance straight away.</li>
          <li>Our team reviews each transfer; you'll see it as pending until it completes.</li>
          <li>A flat 2% fee is taken from the amount; the recipient gets the rest in USDC.</li>
        </ul>
      </CardContent>
    </Card>
  );
}

function Blocked() {
  return (
    <BlockedCard
      icon={Lock}
      tone="brand"
      headingLevel="h1"
      title={SEND_MONEY_BLOCKED.title}
      description={SEND_MONEY_BLOCKED.description}
      action={
        <Button asChild>
          <Link href="/dashboard">Back to Dashboard</Link>
        </Button>
      }
    />
  );
}

export default function SendMoneyPage() {
  useDocumentTitle("Send Money");
  const summary = useAccountSummary();
  const limits = useTransferLimits();
  const selfLimits = useSelfLimits();
  const [sent, setSent] = useState<TransferRequest | null>(null);
  // One live region for the page's steps, mounted before it changes so screen readers say each result.
  const [announcement, setAnnouncement] = useState("");
  const onSent = (transfer: TransferRequest) => {
    setSent(transfer);
    setAnnouncement(`Transfer submitted. Your transfer to ${transfer.recipientName} is pending review.`);
  };

  let body: ReactNode;
  if (sent) {
    body = <TransferSuccess transfer={sent} />;
  } else if (summary.isPending || selfLimits.isPending) {
    body = (
      <div className="grid gap-6 grid-cols-[minmax(0,1fr)] lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Skeleton className="h-[36rem] rounded-card" />
        <Skeleton className="h-48 rounded-card" />
      </div>
    );
  } else if (summary.isError) {
    body = <LoadError what="your account" onRetry={() => void summary.refetch()} framed />;
  } else if (!canSendMoney(summary.data)) {
    body = <Blocked />;
  } else {
    body = (
      <div className="grid items-start gap-6 grid-cols-[minmax(0,1fr)] lg:grid-cols-[minmax(0,1fr)_20rem]">
        <TransferForm
          availableCents={summary.data.availableCents}
          limits={limits.data}
          selfLimits={selfLimits.data}
          onReview={setAnnouncement}
          onSuccess={onSent}
        />
        <div className="grid gap-6">
          <LimitsCard />
          <HowItWorks />
        </div>
      </div>
    );
  }

  return (
    <MoneyShell title="Send Money" tab="/send-money">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {body}
    </MoneyShell>
  );
}
