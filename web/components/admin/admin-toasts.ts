import { handleAdminSessionExpired } from "@/web/components/admin/admin-session-expired";
import { errorMessage } from "@/web/components/toast-error";
import { toast } from "@/web/components/ui/use-toast";

/** Back-office failures with a fixed title: the server's reason, when it gave one, goes underneath. */
export function toastFixedFailure(title: string) {
  return (error: unknown) => {
    if (handleAdminSessionExpired(error)) return;
    const detail = errorMessage(error, "");
    toast({ title, description: detail && detail !== title ? detail : undefined, variant: "destructive" });
  };
}

/** Back-office failures that show "the server message or" the fallback. */
export function toastServerFailure(fallback: string) {
  return (error: unknown) => {
    if (handleAdminSessionExpired(error)) return;
    toast({ title: "Error", description: errorMessage(error, fallback), variant: "destructive" });
  };
}
