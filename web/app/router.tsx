import { lazy, Suspense } from "react";
import { Route, Switch } from "wouter";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { useCurrentUser } from "@/web/features/auth/api/get-user";

// Each page is its own chunk: signed-out visitors never download signed-in or admin code.
const LandingPage = lazy(() => import("@/web/features/marketing/landing-page"));
const AboutPage = lazy(() => import("@/web/features/marketing/about-page"));
const FeaturesPage = lazy(() => import("@/web/features/marketing/features-page"));
const NotFoundPage = lazy(() => import("@/web/features/marketing/not-found-page"));

function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/" component={LandingPage} />
      <Route path="/about" component={AboutPage} />
      <Route path="/features" component={FeaturesPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}

function SignedInRoutes() {
  return (
    <Switch>
      <Route component={NotFoundPage} />
    </Switch>
  );
}

export function AppRouter() {
  const { data: user, isLoading } = useCurrentUser();
  if (isLoading) return <FullScreenSpinner />;
  return (
    <Suspense fallback={<FullScreenSpinner />}>{user ? <SignedInRoutes /> : <SignedOutRoutes />}</Suspense>
  );
}
