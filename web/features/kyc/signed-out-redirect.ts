import { toast } from "@/web/components/ui/use-toast";

/** Spec §9: unauthenticated redirects happen after 500 ms. */
const REDIRECT_DELAY_MS = 500;
let isRedirecting = false;

/**
 * Spec §2 /apply-checking: a visitor without a session gets an Unauthorized toast and goes to / after
 * 500 ms. A full page load, so every cached signed-in query is dropped and the router starts signed out.
 */
export function redirectSignedOut() {
  if (isRedirecting) return;
  isRedirecting = true;
  toast({
    title: "Unauthorized",
    description: "You are logged out. Logging in again...",
    variant: "destructive",
  });
  setTimeout(() => {
    window.location.href = "/";
  }, REDIRECT_DELAY_MS);
}
