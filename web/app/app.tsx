import { type QueryClient, QueryClientProvider, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { Router } from "wouter";
import { AppRouter } from "@/web/app/router";
import { redirectSignedOut } from "@/web/components/signed-out-redirect";
import { useToasts } from "@/web/components/ui/use-toast";
import { answersInPage, takeEventsFromInPage } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";
import { DeviceCookies } from "@/web/lib/device-cookies";
import { createQueryClient, seedFirstReads } from "@/web/lib/query-client";
import { stepUpStore } from "@/web/lib/step-up";

// The toast viewport (Radix toast, ~5 chunks) loads with the first toast, not with the page: on a slow phone
// its code would compete with the page's own, and mounting it was a ~50 ms task in the dashboard's first
// seconds. The toast store lives in the entry chunk, so a toast raised before the viewport is there waits in it.
const Toaster = lazy(() => import("@/web/components/ui/toaster").then((m) => ({ default: m.Toaster })));

function ToasterSlot() {
  const hasToasts = useToasts().length > 0;
  const [isMounted, setMounted] = useState(false);
  // Once mounted it stays, so a closing toast keeps its animation.
  if (hasToasts && !isMounted) setMounted(true);
  return isMounted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

const StepUpHost = lazy(() => import("@/web/components/step-up-host"));

/** The step-up dialog's code loads the first time a call needs a fresh second-factor proof, then stays mounted. */
function StepUpSlot() {
  const request = useSyncExternalStore(stepUpStore.subscribe, stepUpStore.get, stepUpStore.get);
  const [isLoaded, setLoaded] = useState(false);
  if (request && !isLoaded) setLoaded(true);
  return isLoaded ? (
    <Suspense fallback={null}>
      <StepUpHost />
    </Suspense>
  ) : null;
}

/** One pushed-update stream per tab while a customer is signed in (decision 034); staff screens keep their polls. */
function LiveUpdates() {
  const client = useQueryClient();
  const { data: user } = useCurrentUser();
  const customerId = user && !user.isAdmin ? user.id : null;
  useEffect(() => {
    if (!customerId || typeof EventSource === "undefined") return;
    // Loaded once a customer is signed in: the landing page and the sign-in screens never carry the stream code.
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("@/web/lib/live-updates").then(({ startLiveUpdates }) => {
      if (!cancelled) stop = startLiveUpdates(client, { from: takeEventsFromInPage() });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [client, customerId]);
  return null;
}

/** The browser's query client: the answers embedded in the page are in it before the first render. */
function browserQueryClient(): QueryClient {
  const client = createQueryClient({ onSignedOut: redirectSignedOut });
  seedFirstReads(client, answersInPage());
  return client;
}

/**
 * The whole app. The server draws it too (web/app/server-render.tsx), with its own query client seeded from
 * the same answers, the path it was asked for and the request's cookies; the browser then hydrates it.
 */
export function App({
  queryClient: given,
  ssrPath,
  cookies,
}: {
  queryClient?: QueryClient;
  ssrPath?: string;
  cookies?: string;
}) {
  const [queryClient] = useState(() => given ?? browserQueryClient());
  return (
    <Router ssrPath={ssrPath}>
      <DeviceCookies value={cookies}>
        <QueryClientProvider client={queryClient}>
          <AppRouter />
          <LiveUpdates />
          <StepUpSlot />
          <ToasterSlot />
        </QueryClientProvider>
      </DeviceCookies>
    </Router>
  );
}
