import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { AppRouter } from "@/web/app/router";
import { redirectSignedOut } from "@/web/components/signed-out-redirect";
import { useToasts } from "@/web/components/ui/use-toast";
import { createQueryClient } from "@/web/lib/query-client";
import { stepUpStore } from "@/web/lib/step-up";

// The toast viewport (Radix toast, ~5 chunks) loads after the first page has painted, not alongside it, so
// its code does not compete with the page's own on a slow phone link: at once when a toast is raised first
// (the toast store lives in the entry chunk and keeps it), otherwise once the page has had time to settle.
const Toaster = lazy(() => import("@/web/components/ui/toaster").then((m) => ({ default: m.Toaster })));
const TOASTER_LOAD_DELAY_MS = 3000;

function ToasterSlot() {
  const hasToasts = useToasts().length > 0;
  const [isMounted, setMounted] = useState(false);
  // Once mounted it stays, so a closing toast keeps its animation.
  if (hasToasts && !isMounted) setMounted(true);
  useEffect(() => {
    const timer = window.setTimeout(() => setMounted(true), TOASTER_LOAD_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return isMounted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

const StepUpHost = lazy(() => import("@/web/components/step-up-host"));

/** The step-up dialog's code loads the first time a call needs a fresh second-factor proof, then stays mounted. */
function StepUpSlot() {
  const request = useSyncExternalStore(stepUpStore.subscribe, stepUpStore.get);
  const [isLoaded, setLoaded] = useState(false);
  if (request && !isLoaded) setLoaded(true);
  return isLoaded ? (
    <Suspense fallback={null}>
      <StepUpHost />
    </Suspense>
  ) : null;
}

export function App() {
  const [queryClient] = useState(() => createQueryClient({ onSignedOut: redirectSignedOut }));
  return (
    <QueryClientProvider client={queryClient}>
      <AppRouter />
      <StepUpSlot />
      <ToasterSlot />
    </QueryClientProvider>
  );
}
