import { AlertCircle, CheckCircle2 } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { canApply } from "@/contract/kyc";
import { SignedInPage } from "@/web/components/signed-in-page";
import { redirectSignedOut } from "@/web/components/signed-out-redirect";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { FullScreenSpinner, Spinner } from "@/web/components/ui/spinner";
import { useKycStatus } from "@/web/features/kyc/api/get-kyc-status";
import { ApplicationStatusView } from "@/web/features/kyc/components/application-status-view";
import { ApplicationWizard } from "@/web/features/kyc/components/application-wizard";
import { KYC_TEXTS } from "@/web/features/kyc/components/status-badges";
import { isUnauthorized } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** Success redirects after 2 s. */
const SUCCESS_REDIRECT_MS = 2000;

function LoadingCard() {
  return (
    <Card role="status" aria-label="Loading your application">
      <CardHeader className="gap-4">
        <Skeleton className="h-1.5 w-full" />
        <Skeleton className="h-6 w-64 max-w-full" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="grid gap-2">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-10 w-full" />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}

function SubmittedCard() {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center" role="status">
      <span className="flex size-14 items-center justify-center rounded-full bg-positive-soft text-positive">
        <CheckCircle2 className="size-7" aria-hidden />
      </span>
      <h2 className="text-xl font-semibold text-ink">Application submitted</h2>
      <p className="max-w-md text-sm text-ink-muted">{KYC_TEXTS.pending}</p>
      <p className="flex items-center gap-2 text-sm text-ink-muted">
        <Spinner className="size-4" label="Redirecting" />
        Taking you to your dashboard…
      </p>
    </Card>
  );
}

export default function ApplyCheckingPage() {
  useDocumentTitle("Apply for Checking Account");
  const [, navigate] = useLocation();
  const { data: user, isPending: isUserPending } = useCurrentUser();
  const status = useKycStatus({
    enabled: Boolean(user),
    // The wizard decides between "apply" and "status" from this: always read it fresh on arrival.
    staleTime: 0,
    // /apply-checking: signed-out visitors get an Unauthorized toast and go to / after 500 ms.
    meta: { on401: "home" },
  });
  const [isSubmitted, setSubmitted] = useState(false);

  // A visitor without a session gets an Unauthorized toast and goes to / after 500 ms (a 401 on the
  // status read does the same through its on401 policy).
  const hasNoUser = !isUserPending && !user;
  useEffect(() => {
    if (hasNoUser) redirectSignedOut("home");
  }, [hasNoUser]);
  const isSignedOut = hasNoUser || isUnauthorized(status.error);

  useEffect(() => {
    if (!isSubmitted) return;
    const timer = setTimeout(() => navigate("/dashboard"), SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [isSubmitted, navigate]);

  if (!user) return <FullScreenSpinner />;

  const data = status.data;
  const showsStatus = !isSubmitted && data?.kyc && !canApply(data);
  const rejected = data?.kyc?.status === "rejected" ? data.kyc : null;

  let body: ReactNode;
  if (isSubmitted) body = <SubmittedCard />;
  else if (status.isPending || isSignedOut) body = <LoadingCard />;
  else if (status.isError || !data) {
    body = (
      <Card className="flex flex-col items-start gap-3 p-6" role="alert">
        <p className="flex items-center gap-2 text-sm font-medium text-negative">
          <AlertCircle className="size-4" aria-hidden />
          We couldn't load your application status.
        </p>
        <p className="text-sm text-ink-muted">Check your connection and try again.</p>
        <Button variant="secondary" size="sm" onClick={() => status.refetch()}>
          Try again
        </Button>
      </Card>
    );
  } else if (showsStatus && data.kyc) {
    body = <ApplicationStatusView kyc={data.kyc} accountRequest={data.accountRequest} />;
  } else {
    body = (
      <>
        {rejected || data.accountRequest?.status === "rejected" ? (
          <div className="grid gap-1 rounded-lg border border-negative/20 bg-negative-soft p-4 text-sm text-negative">
            <p className="font-medium">{KYC_TEXTS.rejected}</p>
            {rejected?.adminNotes ? <p className="break-words">Reason: {rejected.adminNotes}</p> : null}
          </div>
        ) : null}
        <ApplicationWizard
          previous={rejected}
          hasKycRecord={Boolean(data.kyc)}
          hasPhoneNumber={Boolean(user.phoneNumber)}
          onSubmitted={() => setSubmitted(true)}
        />
      </>
    );
  }

  return (
    <SignedInPage
      user={user}
      back={{ href: "/dashboard", label: "Back to Dashboard" }}
      title={showsStatus ? "Your Checking Account Application" : "Apply for a Checking Account"}
      description={
        showsStatus
          ? "Here's where your application stands."
          : "Two short steps: your details, then your documents. It takes about five minutes."
      }
      className="max-w-3xl"
    >
      {body}
    </SignedInPage>
  );
}
