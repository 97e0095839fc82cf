import { type ComponentType, lazy, Suspense } from "react";
import { Redirect, Route, type RouteComponentProps, Switch, useLocation, useSearch } from "wouter";
import { DASHBOARD_FIRST_READS, firstPageFor } from "@/contract/first-page";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { startEarlyGets } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";
import { afterSignInPath, DEFAULT_SIGNED_IN_PATH, signInPathFor } from "@/web/lib/return-path";
import { hasSignedInHint } from "@/web/lib/signed-in-hint";
import {
  isSignedInPath,
  SIGNED_IN_ROUTE_PATTERNS,
  SIGNED_IN_ROUTES,
  type SignedInRoute,
} from "@/web/lib/signed-in-routes";

// Each page is its own chunk: signed-out visitors never download signed-in or admin code.
const loadLandingPage = () => import("@/web/features/marketing/landing-page");
type DashboardPageModule = typeof import("@/web/features/accounts/dashboard-page");
/**
 * On a dashboard the server drew, its chunk is imported by the URL the page names (server/lib/spa.ts): the
 * browser fetches the chunk's own imports as it reads them, where Vite's import helper would first add ~30
 * preload links in one task (100–300 ms of main thread on a phone-class CPU). The same module either way.
 */
const drawnPageChunk =
  typeof document === "undefined"
    ? undefined
    : document.querySelector<HTMLScriptElement>("script[data-page]")?.dataset.page;
let drawnPage: Promise<DashboardPageModule> | undefined;
function loadDashboardPage(): Promise<DashboardPageModule> {
  if (!drawnPageChunk) return import("@/web/features/accounts/dashboard-page");
  drawnPage ??= import(/* @vite-ignore */ drawnPageChunk);
  return drawnPage;
}
// The first page's chunk downloads while /api/auth/user is still in flight instead of after it (the server
// has already listed its files as modulepreload links in the HTML: server/lib/spa.ts).
// Nothing to start when the server renders the app (web/app/server-render.tsx).
const firstPage =
  typeof window === "undefined" ? null : firstPageFor(window.location.pathname, hasSignedInHint());
if (firstPage === "dashboard") {
  // Its reads go out first, alongside the session check, so the data is back when the chunk has loaded.
  startEarlyGets(DASHBOARD_FIRST_READS);
  void loadDashboardPage();
} else if (firstPage === "landing") void loadLandingPage();
const LandingPage = lazy(loadLandingPage);
const AboutPage = lazy(() => import("@/web/features/marketing/about-page"));
const FeaturesPage = lazy(() => import("@/web/features/marketing/features-page"));
const NotFoundPage = lazy(() => import("@/web/features/marketing/not-found-page"));
const AuthPage = lazy(() => import("@/web/features/auth/auth-page"));
const ForgotPasswordPage = lazy(() => import("@/web/features/auth/forgot-password-page"));
const ThisWasntMePage = lazy(() => import("@/web/features/security/this-wasnt-me-page"));

const DashboardPage = lazy(loadDashboardPage);
const SettingsPage = lazy(() => import("@/web/features/auth/settings/settings-page"));
const PayByTagPage = lazy(() => import("@/web/features/tag-payments/pay-by-tag-page"));
const AdminPage = lazy(() => import("@/web/features/back-office/admin-page"));
const DashboardEditPage = lazy(() => import("@/web/features/content/admin/dashboard-edit-page"));
const CompliancePage = lazy(() => import("@/web/features/compliance/compliance-page"));
const MonitoringPage = lazy(() => import("@/web/features/monitoring/monitoring-page"));
const ApplyCheckingPage = lazy(() => import("@/web/features/kyc/apply-checking-page"));
const SendMoneyPage = lazy(() => import("@/web/features/transfers/send-money-page"));
const ReceiptPage = lazy(() => import("@/web/features/transfers/receipt-page"));
const NotificationsPage = lazy(() => import("@/web/features/notifications/notifications-page"));
const AnalyticsPage = lazy(() => import("@/web/features/accounts/analytics-page"));
const StatementsPage = lazy(() => import("@/web/features/statements/statements-page"));
const RecipientsPage = lazy(() => import("@/web/features/recipients/recipients-page"));
const SchedulesPage = lazy(() => import("@/web/features/schedules/schedules-page"));
const SavingsPage = lazy(() => import("@/web/features/savings/savings-page"));
const AddMoneyPage = lazy(() => import("@/web/features/settlement/add-money-page"));
const ContactPage = lazy(() => import("@/web/features/chat/contact-page"));
const TrustPage = lazy(() => import("@/web/features/marketing/trust-page"));

/** The trust pages read the same signed out and signed in. */
const TRUST_PATHS = ["/privacy", "/terms", "/security"] as const;

/**
 * A signed-out visitor on a signed-in page (a bookmark, a link, Back after Logout) is asked to sign in and
 * brought back afterwards; any other unknown path is the not-found screen.
 */
function SignedOutFallback() {
  const [pathname] = useLocation();
  const search = useSearch();
  if (isSignedInPath(pathname))
    return <Redirect to={signInPathFor(search ? `${pathname}?${search}` : pathname)} replace />;
  return <NotFoundPage />;
}

/** Signed in already: /auth has nothing to do, so go where a `next` pointed or to the dashboard. */
function SignedInAuthRedirect() {
  const target = afterSignInPath();
  return <Redirect to={target === "/" ? DEFAULT_SIGNED_IN_PATH : target} replace />;
}

function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/" component={LandingPage} />
      <Route path="/auth" component={AuthPage} />
      <Route path="/forgot-password" component={ForgotPasswordPage} />
      <Route path="/this-wasnt-me" component={ThisWasntMePage} />
      <Route path="/about" component={AboutPage} />
      <Route path="/features" component={FeaturesPage} />
      {TRUST_PATHS.map((path) => (
        <Route key={path} path={path} component={TrustPage} />
      ))}
      <Route component={SignedOutFallback} />
    </Switch>
  );
}

type Page = ComponentType<RouteComponentProps>;

/** Its pattern's `:userId` is always present when the route matches. */
function DashboardEditRoute({ params }: RouteComponentProps) {
  return <DashboardEditPage params={{ userId: params.userId! }} />;
}

/**
 * Every signed-in page, one per pattern of SIGNED_IN_ROUTES: the compiler refuses a page missing here or a
 * pattern missing there, so the signed-out redirect (which reads that list) covers every page drawn here.
 * `customerOnly`: staff never bank, so such a page sends them to the back office.
 */
const SIGNED_IN_PAGES: Record<SignedInRoute, { page: Page; customerOnly?: true }> = {
  "/dashboard": { page: DashboardPage, customerOnly: true },
  "/settings": { page: SettingsPage },
  "/admin": { page: AdminPage },
  "/admin/compliance/*?": { page: CompliancePage },
  "/admin/monitoring": { page: MonitoringPage },
  "/dashboard-edit/:userId": { page: DashboardEditRoute },
  "/apply-checking": { page: ApplyCheckingPage, customerOnly: true },
  "/send-money": { page: SendMoneyPage, customerOnly: true },
  "/pay": { page: PayByTagPage, customerOnly: true },
  "/transfers/:id": { page: ReceiptPage, customerOnly: true },
  "/analytics": { page: AnalyticsPage, customerOnly: true },
  "/statements": { page: StatementsPage, customerOnly: true },
  "/recipients": { page: RecipientsPage, customerOnly: true },
  "/schedules": { page: SchedulesPage, customerOnly: true },
  "/savings": { page: SavingsPage, customerOnly: true },
  "/add-money": { page: AddMoneyPage, customerOnly: true },
  "/contact": { page: ContactPage, customerOnly: true },
  "/notifications": { page: NotificationsPage, customerOnly: true },
};

/** Staff never bank: a customer-only page sends them to the back office (its second-factor prompt included). */
function ToBackOffice() {
  return <Redirect to="/admin" replace />;
}

function SignedInRoutes({ isStaff }: { isStaff: boolean }) {
  const pageFor = ({ page, customerOnly }: { page: Page; customerOnly?: true }) =>
    customerOnly && isStaff ? ToBackOffice : page;
  return (
    <Switch>
      <Route path="/" component={pageFor(SIGNED_IN_PAGES["/dashboard"])} />
      {SIGNED_IN_ROUTES.map((route) => (
        <Route
          key={route}
          path={SIGNED_IN_ROUTE_PATTERNS[route]}
          component={pageFor(SIGNED_IN_PAGES[route])}
        />
      ))}
      {/* Opened from a security e-mail: it must work in a browser that is still signed in (maybe the intruder's session). */}
      <Route path="/this-wasnt-me" component={ThisWasntMePage} />
      <Route path="/auth" component={SignedInAuthRedirect} />
      {TRUST_PATHS.map((path) => (
        <Route key={path} path={path} component={TrustPage} />
      ))}
      <Route component={NotFoundPage} />
    </Switch>
  );
}

export function AppRouter() {
  const { data: user, isLoading } = useCurrentUser();
  if (isLoading) return <FullScreenSpinner />;
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      {user ? <SignedInRoutes isStaff={user.isAdmin} /> : <SignedOutRoutes />}
    </Suspense>
  );
}
