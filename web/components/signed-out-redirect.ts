import { toast } from "@/web/components/ui/use-toast";
import { signInPathFor } from "@/web/lib/return-path";
import { isSignedInPath } from "@/web/lib/signed-in-routes";

/** Unauthenticated redirects happen after 500 ms. */
const REDIRECT_DELAY_MS = 500;
let isRedirecting = false;

/**
 * "Logged out": the session is gone, so say so and leave after 500 ms — for "sign-in" to /auth
 * (and back to this page afterwards when sign-in can return to it), for "home" to / (as
 * /apply-checking does). A full load, so every cached signed-in query is dropped and the router starts signed
 * out.
 */
export function redirectSignedOut(to: "sign-in" | "home") {
  if (isRedirecting) return;
  isRedirecting = true;
  toast({
    title: "Unauthorized",
    description: "You are logged out. Logging in again...",
    variant: "destructive",
  });
  setTimeout(() => {
    if (to === "home") {
      window.location.href = "/";
      return;
    }
    const { pathname, search } = window.location;
    window.location.href = isSignedInPath(pathname) ? signInPathFor(pathname + search) : "/auth";
  }, REDIRECT_DELAY_MS);
}
