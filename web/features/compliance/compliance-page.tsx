import { ArrowLeft } from "lucide-react";
import { Link, useRoute } from "wouter";
import { canUse } from "@/contract/staff-capabilities";
import { MAIN_PROPS, SkipLink } from "@/web/components/skip-link";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { LogoMark } from "@/web/components/ui/logo";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { CasePage } from "@/web/features/compliance/case-page";
import { CaseQueue } from "@/web/features/compliance/components/case-queue";
import { ListVersionsCard } from "@/web/features/compliance/components/list-versions-card";
import { ListSearchPage } from "@/web/features/compliance/list-search-page";
import { ReportsDuePage } from "@/web/features/compliance/reports-due-page";
import { useCurrentUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** /admin/compliance (the desk) and /admin/compliance/cases/:id (one case), for compliance staff and owners. */
export default function CompliancePage() {
  const [isCase, params] = useRoute("/admin/compliance/cases/:id");
  const [isSearch] = useRoute("/admin/compliance/search");
  const [isReports] = useRoute("/admin/compliance/reports");
  if (isCase) return <CasePage id={params.id} />;
  if (isReports) return <ReportsDuePage />;
  return isSearch ? <ListSearchGate /> : <ComplianceDesk />;
}

/** The list search, for those who may use the desk. */
function ListSearchGate() {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <FullScreenSpinner />;
  if (!canUse(user?.staffRoles ?? [], "complianceDesk")) return <ComplianceDesk />;
  return <ListSearchPage />;
}

/** The sanctions desk: cases and lists. */
function ComplianceDesk() {
  const { data: user, isPending } = useCurrentUser();
  useDocumentTitle("Compliance");
  if (isPending) return <FullScreenSpinner />;
  const roles = user?.staffRoles ?? [];
  const allowed = canUse(roles, "complianceDesk");
  return (
    <div className="min-h-dvh bg-canvas">
      <SkipLink />
      <header className="border-b border-line bg-surface">
        <Container className="flex min-h-16 flex-wrap items-center justify-between gap-x-3 gap-y-2 py-3">
          <div className="flex min-w-0 items-center gap-3">
            <LogoMark />
            <div className="min-w-0">
              <h1 className="truncate text-base font-semibold text-ink">Compliance</h1>
              <p className="hidden truncate text-xs text-ink-muted sm:block">Sanctions screening and cases</p>
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {allowed ? (
              <Button asChild variant="secondary" size="sm">
                <Link href="/admin/compliance/search">
                  <span className="hidden sm:inline">List search</span>
                  <span className="sm:hidden">Search</span>
                </Link>
              </Button>
            ) : null}
            {allowed ? (
              <Button asChild variant="secondary" size="sm">
                <Link href="/admin/compliance/reports">
                  <span className="hidden sm:inline">Reports due</span>
                  <span className="sm:hidden">Reports</span>
                </Link>
              </Button>
            ) : null}
            {allowed ? (
              <Button asChild variant="secondary" size="sm">
                <Link href="/admin/monitoring">
                  <span className="hidden sm:inline">Monitoring alerts</span>
                  <span className="sm:hidden">Alerts</span>
                </Link>
              </Button>
            ) : null}
            <Button asChild variant="secondary" size="sm">
              <Link href="/admin">
                <ArrowLeft aria-hidden />
                <span className="hidden sm:inline">Back to Admin</span>
                <span className="sm:hidden">Back</span>
              </Link>
            </Button>
          </div>
        </Container>
      </header>
      <main {...MAIN_PROPS} className="focus-visible:outline-none">
        <Container className="grid gap-6 py-8">
          {allowed ? (
            <>
              <CaseQueue />
              <ListVersionsCard canLoad={canUse(roles, "loadSanctionsList")} />
            </>
          ) : (
            <p className="text-sm text-ink-muted">Your staff role does not include compliance.</p>
          )}
        </Container>
      </main>
    </div>
  );
}
