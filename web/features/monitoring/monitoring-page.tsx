import { ArrowLeft } from "lucide-react";
import { Link } from "wouter";
import { canUse } from "@/contract/staff-capabilities";
import { MAIN_PROPS, SkipLink } from "@/web/components/skip-link";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { LogoMark } from "@/web/components/ui/logo";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { AlertsCard } from "@/web/features/monitoring/components/alerts-card";
import { useCurrentUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** /admin/monitoring[?case=…]: transaction-monitoring alerts, all or one case's, for compliance staff and owners. */
export default function MonitoringPage() {
  const { data: user, isPending } = useCurrentUser();
  useDocumentTitle("Monitoring alerts");
  const caseId = new URLSearchParams(window.location.search).get("case");
  if (isPending) return <FullScreenSpinner />;
  const roles = user?.staffRoles ?? [];
  const allowed = canUse(roles, "monitoringAlerts");
  return (
    <div className="min-h-dvh bg-canvas">
      <SkipLink />
      <header className="border-b border-line bg-surface">
        <Container className="flex h-16 items-center justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            <LogoMark />
            <div className="min-w-0">
              <h1 className="truncate text-base font-semibold text-ink">Monitoring alerts</h1>
              <p className="hidden truncate text-xs text-ink-muted sm:block">Transaction monitoring</p>
            </div>
          </div>
          <Button asChild variant="secondary" size="sm">
            <Link href="/admin/compliance">
              <ArrowLeft aria-hidden />
              <span className="hidden sm:inline">Back to Compliance</span>
              <span className="sm:hidden">Back</span>
            </Link>
          </Button>
        </Container>
      </header>
      <main {...MAIN_PROPS} className="focus-visible:outline-none">
        <Container className="grid gap-6 py-8">
          {allowed ? (
            <AlertsCard caseId={caseId && /^[0-9a-f-]{36}$/i.test(caseId) ? caseId : null} />
          ) : (
            <p className="text-sm text-ink-muted">Your staff role does not include compliance.</p>
          )}
        </Container>
      </main>
    </div>
  );
}
