import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState, useSyncExternalStore } from "react";
import { AppRouter } from "@/web/app/router";
import { redirectSignedOut } from "@/web/components/signed-out-redirect";
import { createQueryClient } from "@/web/lib/query-client";
import { stepUpStore } from "@/web/lib/step-up";

// The toast viewport loads alongside the first page rather than before it: the toast store lives in the
// entry chunk, so a toast raised before the viewport arrives is kept and shown once it renders.
const Toaster = lazy(() => import("@/web/components/ui/toaster").then((m) => ({ default: m.Toaster })));

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
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
