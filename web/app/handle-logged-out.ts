import type { QueryClient } from "@tanstack/react-query";
import { toast } from "@/web/components/ui/use-toast";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";
import { isSignedInPath, signInPathFor } from "@/web/lib/return-path";

/** Spec §9: unauthenticated redirects happen after 500 ms. */
const REDIRECT_DELAY_MS = 500;
let isRedirecting = false;

/**
 * Spec §4/§8 "Logged out": a signed-in page's call answered 401, so the session is gone.
 * Signed-out pages (sign-in with a wrong password, say) are left alone: there was no session to lose.
 */
export function handleLoggedOut(client: QueryClient) {
  if (isRedirecting || !client.getQueryData(CURRENT_USER_KEY)) return;
  isRedirecting = true;
  toast({
    title: "Unauthorized",
    description: "You are logged out. Logging in again...",
    variant: "destructive",
  });
  // A full load, so every cached signed-in query is dropped and the router starts signed out.
  setTimeout(() => {
    // Back to this page after signing in again, when it is one the sign-in can return to.
    const { pathname, search } = window.location;
    window.location.href = isSignedInPath(pathname) ? signInPathFor(pathname + search) : "/auth";
  }, REDIRECT_DELAY_MS);
}
