import { toast } from "@/web/components/ui/use-toast";
import { isUnauthorized } from "@/web/lib/api";

/**
 * A spec message as a destructive toast. The spec writes title and description as "Title: text"
 * (e.g. 'Missing information: Please fill in all fields'); a message without a colon is the title alone.
 */
export function toastError(message: string) {
  const at = message.indexOf(": ");
  if (at > 0 && at < 40) {
    toast({ title: message.slice(0, at), description: message.slice(at + 2), variant: "destructive" });
  } else {
    toast({ title: message, variant: "destructive" });
  }
}

/** The server's message when it sent one, else the fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/**
 * A failed signed-in call as a destructive toast: the spec's title, the server's message (or a fallback).
 * A 401 shows nothing here: the app-wide logged-out handler already says so and redirects.
 */
export function toastApiError(error: unknown, title: string, fallback = "Please try again") {
  if (isUnauthorized(error)) return;
  toast({ title, description: errorMessage(error, fallback), variant: "destructive" });
}
