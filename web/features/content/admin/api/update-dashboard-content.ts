import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateDashboardContentInput } from "@/contract/dashboard-content";
import { toast } from "@/web/components/ui/use-toast";
import { dashboardContentQuery } from "@/web/features/content/admin/api/get-dashboard-content";
import { callEndpoint } from "@/web/lib/api";

/** PUT /api/admin/dashboard-content/{userId}: any subset of fields; an empty string restores the default. */
export function updateDashboardContent({
  userId,
  input,
}: {
  userId: string;
  input: UpdateDashboardContentInput;
}) {
  return callEndpoint("PUT /api/admin/dashboard-content/:userId", { params: { userId }, body: input });
}

export function useUpdateDashboardContent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDashboardContent,
    meta: { on401: "ignore" },
    onSuccess: (saved, { userId }) => {
      toast({ title: "Dashboard content saved" });
      queryClient.setQueryData(dashboardContentQuery(userId).queryKey, saved);
    },
  });
}
