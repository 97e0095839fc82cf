import { AlertCircle, ArrowRight, Check, CreditCard, X } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import type { DashboardContentField } from "@/contract/dashboard-content-fields";
import type { OnboardingState } from "@/contract/kyc";
import { type OnboardingStep, onboardingView } from "@/web/components/dashboard/onboarding-steps";
import { welcomeHeading } from "@/web/components/dashboard/welcome-heading";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { formatDate } from "@/web/lib/format";

type Texts = Record<DashboardContentField, string>;
export interface BalanceFigures {
  total: string;
  available: string;
  pending: string;
  hasPending: boolean;
}
/** Fetched data in its three designed states. */
export type Loadable<T> =
  | { status: "loading" }
  | { status: "error"; retry: () => void }
  | { status: "ready"; data: T };

/**
 * The top of the customer's dashboard — greeting, balances, onboarding timeline — drawn from real state.
 * The dashboard and the admin's live preview (/dashboard-edit/{userId}) both render this one component, so
 * what the admin previews is what the customer sees.
 */
export function DashboardOverview({
  firstName,
  texts,
  balances,
  onboarding,
  accountNumbers,
  isPreview = false,
  banners,
  savings,
}: {
  firstName: string;
  texts: Texts;
  balances: Loadable<BalanceFigures>;
  onboarding: Loadable<OnboardingState>;
  /** The customer's own account-number control (the preview never shows the number). */
  accountNumbers?: ReactNode;
  /** In the preview, links are drawn but inert: the admin is not the customer. */
  isPreview?: boolean;
  banners?: ReactNode;
  /** The customer's savings account, under checking's figures, drawing its own rule (the preview has none). */
  savings?: ReactNode;
}) {
  const Heading = isPreview ? "h2" : "h1";
  return (
    // A container, not the viewport, decides the layout: the admin's preview column is narrower than a phone.
    <div className="@container grid gap-6">
      <div className="grid gap-1">
        <Heading className="text-2xl font-semibold tracking-tight text-ink">
          {welcomeHeading(texts.welcomeTitle, firstName)}
        </Heading>
        <p className="text-sm text-ink-muted">{texts.welcomeMessage}</p>
      </div>
      {banners}
      <BalancePanel texts={texts} balances={balances} savings={savings} />
      <OnboardingTimeline
        texts={texts}
        onboarding={onboarding}
        accountNumbers={accountNumbers}
        isPreview={isPreview}
      />
    </div>
  );
}

function RetryMessage({ text, retry }: { text: string; retry: () => void }) {
  return (
    <div className="grid justify-items-start gap-2">
      <p className="flex items-center gap-2 text-sm text-negative" role="alert">
        <AlertCircle className="size-4 shrink-0" aria-hidden />
        {text}
      </p>
      <Button variant="secondary" size="sm" onClick={retry}>
        Try again
      </Button>
    </div>
  );
}

/** Total, available and pending balances, savings beside them, and the card that is coming soon. */
function BalancePanel({
  texts,
  balances,
  savings,
}: {
  texts: Texts;
  balances: Loadable<BalanceFigures>;
  savings?: ReactNode;
}) {
  const figures = balances.status === "ready" ? balances.data : null;
  const placeholder = balances.status === "error" ? "—" : <Skeleton className="h-6 w-24" />;
  return (
    <Card className="grid gap-6 p-6 @xl:grid-cols-[1fr_auto] @xl:items-center">
      <div className="grid gap-5">
        <div className="grid gap-1">
          <p className="text-sm font-medium text-ink-muted">{texts.balanceLabel}</p>
          {balances.status === "loading" ? (
            <Skeleton className="h-10 w-48" />
          ) : balances.status === "error" ? (
            <RetryMessage text="We couldn't load your balance." retry={balances.retry} />
          ) : (
            <p className="text-4xl font-semibold tracking-tight text-ink tabular-nums">
              {balances.data.total}
            </p>
          )}
        </div>
        <dl className="grid grid-cols-2 gap-4 border-t border-line pt-4 @xl:max-w-md">
          <div className="grid gap-0.5">
            <dt className="text-xs text-ink-muted">{texts.availableLabel}</dt>
            <dd className="text-lg font-semibold text-ink tabular-nums">
              {figures ? figures.available : placeholder}
            </dd>
          </div>
          <div className="grid gap-0.5">
            <dt className="text-xs text-ink-muted">{texts.pendingLabel}</dt>
            <dd className="text-lg font-semibold tabular-nums">
              {figures ? (
                <span className={figures.hasPending ? "text-pending" : "text-ink"}>{figures.pending}</span>
              ) : (
                placeholder
              )}
            </dd>
          </div>
        </dl>
        {savings}
      </div>
      <div className="relative flex min-h-36 w-full flex-col justify-between overflow-hidden rounded-xl bg-gradient-to-br from-brand-700 to-brand-900 p-5 text-white @xl:max-w-72">
        <div className="flex items-start justify-between gap-3">
          <CreditCard className="size-6 text-brand-100" aria-hidden />
          <Badge className="bg-white/15 text-white">Cards Coming Soon</Badge>
        </div>
        <div className="grid gap-1">
          {/* No made-up number: one shows only when an admin set it. */}
          {texts.cardNumber ? (
            <p className="font-mono text-sm tracking-widest text-brand-100 tabular-nums">
              {texts.cardNumber}
            </p>
          ) : null}
          <p className="truncate text-sm font-semibold">{texts.cardName}</p>
        </div>
      </div>
    </Card>
  );
}

const MARKER: Record<OnboardingStep["state"], { className: string; icon: ReactNode; label: string }> = {
  done: {
    className: "bg-positive text-white",
    icon: <Check className="size-4" aria-hidden />,
    label: "Done",
  },
  failed: {
    className: "bg-negative text-white",
    icon: <X className="size-4" aria-hidden />,
    label: "Not approved",
  },
  current: {
    className: "bg-pending-soft text-pending ring-2 ring-pending",
    icon: null,
    label: "In progress",
  },
  upcoming: { className: "bg-canvas text-ink-subtle ring-1 ring-line", icon: null, label: "Not yet" },
};

/** Identity check → account opened, each step with its real status; replaces the spec's two status cards. */
function OnboardingTimeline({
  texts,
  onboarding,
  accountNumbers,
  isPreview,
}: {
  texts: Texts;
  onboarding: Loadable<OnboardingState>;
  accountNumbers?: ReactNode;
  isPreview: boolean;
}) {
  if (onboarding.status === "loading")
    return (
      <Card role="status" aria-label="Loading account status" className="grid gap-3 p-6">
        <Skeleton className="h-5 w-48" />
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </Card>
    );
  if (onboarding.status === "error")
    return (
      <Card className="p-6">
        <RetryMessage
          text="We couldn't load your account status. Check your connection and try again."
          retry={onboarding.retry}
        />
      </Card>
    );
  const state = onboarding.data;
  const view = onboardingView(state, texts);
  const request = state.accountRequest;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{view.title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <ol className="grid gap-0">
          {view.steps.map((step, index) => {
            const marker = MARKER[step.state];
            const isLast = index === view.steps.length - 1;
            return (
              <li key={step.key} className="relative grid grid-cols-[2rem_1fr] gap-3 pb-5 last:pb-0">
                {isLast ? null : <span aria-hidden className="absolute top-8 bottom-0 left-4 w-px bg-line" />}
                <span
                  className={cn(
                    "relative flex size-8 items-center justify-center rounded-full text-sm font-semibold",
                    marker.className,
                  )}
                >
                  {marker.icon ?? <span aria-hidden>{index + 1}</span>}
                  <span className="sr-only">
                    Step {index + 1}: {marker.label}
                  </span>
                </span>
                <div className="grid min-w-0 gap-1 pt-1">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <h3 className="text-sm font-semibold text-ink">{step.title}</h3>
                    <Badge tone={step.badge.tone}>{step.badge.label}</Badge>
                  </div>
                  <p className="text-sm text-ink-muted">{step.text}</p>
                  {step.reason ? (
                    <p className="rounded-lg bg-negative-soft px-3 py-2 text-sm text-ink">
                      <span className="font-medium">Reason: </span>
                      {step.reason}
                    </p>
                  ) : null}
                  {step.key === "identity" && state.kyc ? (
                    <p className="text-xs text-ink-subtle">
                      Submitted {formatDate(state.kyc.submittedAt)}
                      {state.kyc.reviewedAt ? ` · reviewed ${formatDate(state.kyc.reviewedAt)}` : null}
                    </p>
                  ) : null}
                  {step.key === "account" && request ? (
                    <p className="text-xs text-ink-subtle">
                      <span className="capitalize">{request.accountType}</span> checking · applied{" "}
                      {formatDate(request.createdAt)}
                      {request.approvedAt ? ` · approved ${formatDate(request.approvedAt)}` : null}
                    </p>
                  ) : null}
                  {step.key === "account" && request?.status === "approved"
                    ? (accountNumbers ??
                      (request.accountNumberLast4 ? (
                        <p className="text-sm text-ink tabular-nums">
                          Account •••••{request.accountNumberLast4}
                        </p>
                      ) : null))
                    : null}
                </div>
              </li>
            );
          })}
        </ol>
        {view.action ? (
          isPreview ? (
            <span className="inline-flex h-10 items-center gap-2 justify-self-start rounded-lg bg-brand-700 px-4 text-sm font-medium text-white opacity-90">
              {view.action.label}
              <ArrowRight className="size-4" aria-hidden />
            </span>
          ) : (
            <Button asChild className="justify-self-start">
              <Link href={view.action.href}>
                {view.action.label}
                <ArrowRight aria-hidden />
              </Link>
            </Button>
          )
        ) : null}
      </CardContent>
    </Card>
  );
}
