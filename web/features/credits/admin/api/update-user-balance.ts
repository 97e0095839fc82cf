import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isPendingApproval, SENT_FOR_APPROVAL_TOAST } from "@/contract/approvals";
import { invalidateAdminMoney } from "@/web/components/admin/admin-money";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * PUT /api/admin/users/{userId}/balance: the new balance as typed ("$1000.00") and the balance it was typed
 * against (`expectedBalance`: a balance that moved meanwhile is refused, 409, rather than swallowed). The server
 * posts the difference as an adjustment, never overwrites, and refuses to go below the amount held. It checks
 * the edit first (`dryRun`: nothing written, no second factor), so a refusal never costs a code.
 */
export async function updateUserBalance({
  userId,
  accountBalance,
  expectedBalance,
  reason,
}: {
  userId: string;
  accountBalance: string;
  expectedBalance: string;
  reason: string;
}) {
  const body = { accountBalance, expectedBalance, reason };
  await callEndpoint("PUT /api/admin/users/:userId/balance", {
    params: { userId },
    body: { ...body, dryRun: true },
  });
  // Maker-checker: every adjustment waits for a second finance member (202 "Sent for approval").
  return withStepUp(() => callEndpoint("PUT /api/admin/users/:userId/balance", { params: { userId }, body }));
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
    // A refusal (the balance moved since it was shown, say) refreshes what the editor shows.
    onError: () => invalidateAdminMoney(queryClient),
  });
}
