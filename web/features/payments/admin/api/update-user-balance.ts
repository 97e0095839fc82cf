import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  isPendingApproval,
  type PendingApprovalResponse,
  SENT_FOR_APPROVAL_TOAST,
} from "@/contract/approvals";
import { toast } from "@/web/components/ui/use-toast";
import { invalidateAdminMoney } from "@/web/features/payments/admin/api/invalidate-admin-money";
import { apiRequest } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * PUT /api/admin/users/{userId}/balance: the new balance as typed ("$1000.00"). The server posts the
 * difference as an adjustment, never overwrites, and refuses to go below the amount held.
 */
export function updateUserBalance({
  userId,
  accountBalance,
  reason,
}: {
  userId: string;
  accountBalance: string;
  reason: string;
}) {
  // Maker-checker: every adjustment waits for a second finance member (202 "Sent for approval").
  return withStepUp(() =>
    apiRequest<{ accountBalance: string } | PendingApprovalResponse>(
      "PUT",
      `/api/admin/users/${encodeURIComponent(userId)}/balance`,
      { accountBalance, reason },
    ),
  );
}

export function useUpdateUserBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserBalance,
    meta: { on401: "ignore" },
    // The toast comes from the mutation, not the dialog or row, which the refresh may unmount.
    onSuccess: (result) => {
      toast(
        isPendingApproval(result) ? SENT_FOR_APPROVAL_TOAST : { title: "User balance updated successfully" },
      );
      return invalidateAdminMoney(queryClient);
    },
  });
}
