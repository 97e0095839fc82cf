import { Send } from "lucide-react";
import { type Ref, useId, useLayoutEffect, useRef } from "react";
import { CHAT_MESSAGE_MAX } from "@/contract/chat";
import { sendOnEnter } from "@/web/components/chat/use-chat-draft";
import { Button } from "@/web/components/ui/button";
import { Textarea } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";

const MAX_HEIGHT_PX = 120;
const COUNTER_FROM = CHAT_MESSAGE_MAX - 200;

/** Multi-line input that grows up to 120 px; Enter sends, Shift+Enter starts a new line. */
export function ChatComposer({
  value,
  onChange,
  onSubmit,
  isSending,
  error,
  textareaRef,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  isSending: boolean;
  /** Said under the input (beside the spec's toast) until the text changes. */
  error?: string | null;
  textareaRef?: Ref<HTMLTextAreaElement>;
}) {
  const hintId = useId();
  const local = useRef<HTMLTextAreaElement | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the height follows the text, also when the page sets it.
  useLayoutEffect(() => {
    const el = local.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight + 2, MAX_HEIGHT_PX)}px`;
  }, [value]);

  const setRefs = (el: HTMLTextAreaElement | null) => {
    local.current = el;
    if (typeof textareaRef === "function") textareaRef(el);
    else if (textareaRef) textareaRef.current = el;
  };

  return (
    <form
      className="grid gap-2 p-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <div className="flex items-end gap-2">
        <label htmlFor={`${hintId}-input`} className="sr-only">
          Message
        </label>
        <Textarea
          id={`${hintId}-input`}
          ref={setRefs}
          rows={1}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => sendOnEnter(e, isSending, onSubmit)}
          placeholder="Type your message..."
          maxLength={CHAT_MESSAGE_MAX}
          disabled={isSending}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId}-error ${hintId}` : hintId}
          className="max-h-[120px] min-h-10 flex-1 overflow-y-auto py-2"
        />
        <Button
          type="submit"
          size="icon"
          disabled={isSending || value.trim().length === 0}
          aria-label={isSending ? "Sending message" : "Send message"}
        >
          {isSending ? <Spinner className="size-4 text-white" label="Sending" /> : <Send aria-hidden />}
        </Button>
      </div>
      {error ? (
        <p id={`${hintId}-error`} className="text-sm text-negative">
          {error}
        </p>
      ) : null}
      <p id={hintId} className="flex justify-between gap-2 text-xs text-ink-subtle">
        <span>Press Enter to send, Shift+Enter for new line</span>
        {value.length >= COUNTER_FROM ? (
          <span className="tabular-nums">
            {value.length.toLocaleString("en-US")}/{CHAT_MESSAGE_MAX.toLocaleString("en-US")}
          </span>
        ) : null}
      </p>
    </form>
  );
}
