import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { AppRouter } from "@/web/app/router";
import { Toaster } from "@/web/components/ui/toaster";
import { TooltipProvider } from "@/web/components/ui/tooltip";
import { createQueryClient } from "@/web/lib/query-client";

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <AppRouter />
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
