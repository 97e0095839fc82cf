import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { handleLoggedOut } from "@/web/app/handle-logged-out";
import { AppRouter } from "@/web/app/router";
import { createQueryClient } from "@/web/lib/query-client";

// The toast viewport loads alongside the first page rather than before it: the toast store lives in the
// entry chunk, so a toast raised before the viewport arrives is kept and shown once it renders.
const Toaster = lazy(() => import("@/web/components/ui/toaster").then((m) => ({ default: m.Toaster })));

export function App() {
  const [queryClient] = useState(() => createQueryClient({ onUnauthorized: handleLoggedOut }));
  return (
    <QueryClientProvider client={queryClient}>
      <AppRouter />
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
