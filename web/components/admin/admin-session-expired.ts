import { toastError } from "@/web/components/toast-error";
import { isUnauthorized } from "@/web/lib/api";

/** The admin redirect happens after 500 ms. */
const REDIRECT_DELAY_MS = 500;
let isRedirecting = false;

/**
 * A 401 on a back-office change means the session ended — say so and go to /auth after 500 ms.
 * Returns true when it handled the error, so the caller skips its own failure toast.
 */
export function handleAdminSessionExpired(error: unknown): boolean {
  if (!isUnauthorized(error)) return false;
  if (isRedirecting) return true;
  isRedirecting = true;
  toastError("Unauthorized: Session expired. Please log in again.");
  setTimeout(() => {
    window.location.href = "/auth";
  }, REDIRECT_DELAY_MS);
  return true;
}
