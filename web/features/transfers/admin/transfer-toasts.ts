import { handleAdminSessionExpired } from "@/web/components/admin/admin-session-expired";
import { errorMessage } from "@/web/components/toast-error";
import { toast } from "@/web/components/ui/use-toast";

/** The toast for a failed transfer decision, shared by the quick buttons and the review dialog. */
export function toastTransferFailed(error: unknown) {
  if (handleAdminSessionExpired(error)) return;
  // A 409 (already final, not enough held) carries the server's reason; show it under the spec's title.
  const detail = errorMessage(error, "");
  toast({
    title: "Failed to update transfer request",
    description: detail && detail !== "Failed to update transfer request" ? detail : undefined,
    variant: "destructive",
  });
}
