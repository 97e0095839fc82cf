import { type ToastInput, toast } from "@/web/components/ui/use-toast";
import { isUnauthorized } from "@/web/lib/api";

/**
 * A spec message as a destructive toast. The spec writes title and description as "Title: text"
 * (e.g. 'Missing information: Please fill in all fields'); a message without a colon is the title alone.
 */
export function toastError(message: string) {
  toast({ ...splitMessage(message), variant: "destructive" });
}

function splitMessage(message: string): ToastInput {
  const at = message.indexOf(": ");
  return at > 0 && at < 40
    ? { title: message.slice(0, at), description: message.slice(at + 2) }
    : { title: message };
}

let fieldToast: { dismiss: () => void } | null = null;

/**
 * A form's field error as a toast that goes away as soon as a field is edited (dismissFieldToast): the inline
 * error under the field says what is still wrong, and a toast about a field already corrected would mislead.
 */
export function toastFieldError(message: string | ToastInput) {
  const input = typeof message === "string" ? splitMessage(message) : message;
  fieldToast = toast({ ...input, variant: "destructive" });
}

/** Call from a form's change handler: dismisses the field-error toast it raised, and no other toast. */
export function dismissFieldToast() {
  fieldToast?.dismiss();
  fieldToast = null;
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
