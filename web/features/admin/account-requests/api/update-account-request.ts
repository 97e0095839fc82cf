import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateAccountRequestInput, UpdateAccountRequestResponse } from "@/contract/admin-onboarding";
import { invalidateOnboarding } from "@/web/features/admin/kyc/api/invalidate-onboarding";
import { apiRequest } from "@/web/lib/api";

/** PUT /api/admin/account-requests/{id}: status, statusMessage, adminNotes; on approved also the numbers. */
export function updateAccountRequest({ id, input }: { id: string; input: UpdateAccountRequestInput }) {
  return apiRequest<UpdateAccountRequestResponse>(
    "PUT",
    `/api/admin/account-requests/${encodeURIComponent(id)}`,
    input,
  );
}

export function useUpdateAccountRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccountRequest,
    // The tab shows the spec's session-expired toast itself.
    meta: { ignoreUnauthorized: true },
    onSuccess: () => invalidateOnboarding(queryClient),
  });
}
