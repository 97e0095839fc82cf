import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { DecideApprovalResponse } from "@/contract/approvals";
import { apiRequest } from "@/web/lib/api";

/** POST /api/admin/approvals/{id}/approve or /reject (reject needs a reason): a second staff member decides. */
export function decideApproval({
  id,
  decision,
  reason,
}: {
  id: string;
  decision: "approve" | "reject";
  reason?: string;
}) {
  return apiRequest<DecideApprovalResponse>(
    "POST",
    `/api/admin/approvals/${encodeURIComponent(id)}/${decision}`,
    reason ? { reason } : {},
  );
}

export function useDecideApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideApproval,
    // An approval moves money or state anywhere in the back office: every list reads fresh.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
