import { CircleAlert, CircleCheck, ShieldAlert } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "wouter";
import { SEND_BLOCK_UNDO_HOURS } from "@/contract/self-limits";
import { AuthShell } from "@/web/components/auth-shell";
import { Button } from "@/web/components/ui/button";
import { Spinner } from "@/web/components/ui/spinner";
import { useUndoSendBlock } from "@/web/features/security/api/undo-send-block";
import { failureOf, type LinkFailure } from "@/web/features/security/link-failure";

/** The result view's query value after the full load that follows an undo (every session just ended). */
export const BLOCK_UNDONE = "block-undone";

const FAILURES: Record<LinkFailure, { title: string; text: string }> = {
  invalid: {
    title: "This link doesn't work",
    text: "It may be incomplete or mistyped. Open the link from your newest e-mail again, or contact support.",
  },
  expired: {
    title: "This link has expired",
    text: `The link undoes a block for ${SEND_BLOCK_UNDO_HOURS} hours after it was switched on. If you did not switch it on, contact support: our compliance team can lift it once they have checked it is you.`,
  },
  used: {
    title: "This link was already used",
    text: "Each link works once. If you still need help with your account, contact support.",
  },
  other: {
    title: "We couldn't undo the block",
    text: "Something went wrong on our side or your connection dropped. Please try again.",
  },
};

/** After the undo: what happened and the one thing left to do. */
export function BlockUndoneView() {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <AuthShell
      back={{ label: "Home", href: "/" }}
      title="Block on crypto sends undone"
      description="Your money can move again once you have a new password."
    >
      <div className="grid gap-4" role="status">
        <div className="flex items-start gap-3">
          <CircleCheck aria-hidden className="mt-0.5 size-6 shrink-0 text-positive" />
          <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-ink outline-none">
            Done. The block is undone
          </h2>
        </div>
        <ul className="grid list-disc gap-1 pl-5 text-sm text-ink">
          <li>Crypto sends are no longer blocked, and no cooldown runs.</li>
          <li>Every device was signed out.</li>
        </ul>
        <p className="text-sm text-ink">Reset your password to sign in again.</p>
        <Button asChild size="lg">
          <Link href="/forgot-password">Reset my password</Link>
        </Button>
      </div>
    </AuthShell>
  );
}

/**
 * "This wasn't me" for a block on crypto sends (decision 047): opened from the e-mail sent when the block was
 * switched on, signed in or not. One button undoes the block and signs every device out.
 */
export function UndoSendBlockView({ token }: { token: string | null }) {
  const undo = useUndoSendBlock();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const failure = !token ? "invalid" : undo.isError ? failureOf(undo.error) : null;
  useEffect(() => {
    if (failure) headingRef.current?.focus();
  }, [failure]);

  const onUndo = () => {
    if (!token) return;
    // A full load on success: the sessions just ended, so the app starts again signed out on the result view.
    undo.mutate(
      { token },
      { onSuccess: () => window.location.replace(`/this-wasnt-me?result=${BLOCK_UNDONE}`) },
    );
  };
  const isBusy = undo.isPending || undo.isSuccess;

  if (failure) {
    const { title, text } = FAILURES[failure];
    return (
      <AuthShell
        back={{ label: "Home", href: "/" }}
        title="This wasn't me"
        description="Undo a block on crypto sends"
      >
        <div className="grid gap-4" role="alert">
          <div className="flex items-start gap-3">
            <CircleAlert aria-hidden className="mt-0.5 size-6 shrink-0 text-negative" />
            <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-ink outline-none">
              {title}
            </h2>
          </div>
          <p className="text-sm text-ink">{text}</p>
          {failure === "other" ? (
            <Button size="lg" variant="destructive" onClick={onUndo} disabled={isBusy}>
              Try again
            </Button>
          ) : null}
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      back={{ label: "Home", href: "/" }}
      title="This wasn't me"
      description="Didn't block crypto sends yourself? Undo it now."
    >
      <div className="grid gap-4">
        <div className="flex items-start gap-3 rounded-lg bg-negative-soft p-4 text-sm text-ink">
          <ShieldAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-negative" />
          <div className="grid gap-2">
            <p className="font-medium">When you undo the block, we will:</p>
            <ul className="grid list-disc gap-1 pl-5">
              <li>remove the block and its cooldown, so your money can move again,</li>
              <li>sign out every device, including this one,</li>
              <li>ask you for a new password before you sign in.</li>
            </ul>
          </div>
        </div>
        <Button size="lg" variant="destructive" onClick={onUndo} disabled={isBusy}>
          {isBusy ? <Spinner className="size-4 text-white" label="Undoing the block" /> : null}
          Undo the block
        </Button>
        <Button asChild variant="ghost">
          <Link href="/">It was me, take me back</Link>
        </Button>
      </div>
    </AuthShell>
  );
}
