import { type KeyboardEvent, useRef, useState } from "react";
import { CHAT_MESSAGES } from "@/contract/chat";
import { toast } from "@/web/components/ui/use-toast";
import { ApiError } from "@/web/lib/api";
import { ResendKeys } from "@/web/lib/idempotency-key";

/**
 * A chat message being written, by a customer or by support: the text, the error said under the field, and the
 * field itself (to focus it again once a message is sent).
 */
export function useChatDraft() {
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const onChange = (value: string) => {
    setDraft(value);
    setError(null);
  };
  /** The trimmed message to send, or null after saying (under the field and in the spec's toast) it is empty. */
  const takeMessage = (): string | null => {
    const message = draft.trim();
    if (!message) {
      setError(CHAT_MESSAGES.required);
      textarea.current?.focus();
      toast({ title: "Message Required", description: CHAT_MESSAGES.required, variant: "destructive" });
      return null;
    }
    setError(null);
    return message;
  };
  // The input is disabled while sending; hand the focus back for the next message.
  const refocus = () => requestAnimationFrame(() => textarea.current?.focus());
  // A message sent again after an unknown outcome carries the same Idempotency-Key: posted once (decision 027).
  const [keys] = useState(() => new ResendKeys());
  const keyFor = (message: string) => keys.keyFor(message);
  /** Once a send is answered (or failed): the key is kept only for an unknown outcome, and the focus returns. */
  const afterSend = (sendError: unknown) => {
    keys.settled(sendError ? (sendError instanceof ApiError ? sendError.status : undefined) : 200);
    refocus();
  };
  return { draft, setDraft, onChange, error, textarea, takeMessage, refocus, keyFor, afterSend };
}

/** Enter sends, Shift+Enter (or an input method composing) starts a new line. */
export function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>, isSending: boolean, send: () => void) {
  if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
  event.preventDefault();
  if (!isSending) send();
}
