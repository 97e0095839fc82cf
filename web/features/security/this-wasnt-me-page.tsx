import { CircleAlert, CircleCheck, ShieldAlert } from "lucide-react";
import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { BRAND } from "@/contract/brand";
import { AuthShell } from "@/web/components/auth-shell";
import { Button } from "@/web/components/ui/button";
import { Spinner } from "@/web/components/ui/spinner";
import { useFreezeLinkStatus } from "@/web/features/security/api/check-freeze-link";
import { useFreezeAccount } from "@/web/features/security/api/freeze-account";
import { failureOf, type LinkFailure } from "@/web/features/security/link-failure";
import {
  BLOCK_UNDONE,
  BlockUndoneView,
  UndoSendBlockView,
} from "@/web/features/security/undo-send-block-view";
import { useDocumentTitle } from "@/web/lib/use-document-title";

type Outcome = "frozen" | "already-frozen";

const RESULT_PARAM = "result";

/** The token rides in the fragment (#token=…), so it never reaches a server log or a Referer header. */
function readToken(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
  return token ? token : null;
}

function readOutcome(): Outcome | null {
  const value = new URLSearchParams(window.location.search).get(RESULT_PARAM);
  return value === "frozen" || value === "already-frozen" ? value : null;
}

const FAILURES: Record<LinkFailure, { title: string; text: string }> = {
  invalid: {
    title: "This link doesn't work",
    text: "It may be incomplete or mistyped. Open the newest “This wasn't me” link from your e-mail again, or contact support.",
  },
  expired: {
    title: "This link has expired",
    text: "Links work for 7 days. If you didn't make this change, contact support right away and we'll freeze your account for you.",
  },
  used: {
    title: "This link was already used",
    text: "Each link works once. If you still need help with your account, contact support.",
  },
  other: {
    title: "We couldn't freeze your account",
    text: "Something went wrong on our side or your connection dropped. Please try again.",
  },
};

function SupportLine() {
  return (
    <p className="text-sm text-ink-muted">
      Need help? Write to{" "}
      <a className="font-medium text-brand-600 hover:underline" href={`mailto:${BRAND.supportEmail}`}>
        {BRAND.supportEmail}
      </a>
      .
    </p>
  );
}

function Notice({
  tone,
  title,
  children,
  headingRef,
}: {
  tone: "positive" | "negative";
  title: string;
  children: ReactNode;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const Icon = tone === "positive" ? CircleCheck : CircleAlert;
  return (
    <div className="grid gap-4" role={tone === "positive" ? "status" : "alert"}>
      <div className="flex items-start gap-3">
        <Icon
          aria-hidden
          className={
            tone === "positive"
              ? "mt-0.5 size-6 shrink-0 text-positive"
              : "mt-0.5 size-6 shrink-0 text-negative"
          }
        />
        <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-ink outline-none">
          {title}
        </h2>
      </div>
      {children}
    </div>
  );
}

/**
 * "This wasn't me", opened from a security e-mail, signed in or not. Most links freeze the account; the one sent
 * when "Block crypto sends" is switched on (`#for=send-block&token=…`) undoes the block instead (decision 047).
 */
export default function ThisWasntMePage() {
  useDocumentTitle("This wasn't me");
  const [view] = useState(() =>
    new URLSearchParams(window.location.search).get(RESULT_PARAM) === BLOCK_UNDONE
      ? "block-undone"
      : new URLSearchParams(window.location.hash.slice(1)).get("for") === "send-block"
        ? "undo-block"
        : "freeze",
  );
  if (view === "block-undone") return <BlockUndoneView />;
  if (view === "undo-block") return <UndoSendBlockView token={readToken()} />;
  return <FreezeView />;
}

/** One button freezes the account. */
function FreezeView() {
  const [token, setToken] = useState(readToken);
  const [resultOutcome] = useState(readOutcome);
  const freeze = useFreezeAccount();
  // A link opened again (its account frozen, or spent) says so at once instead of offering the button again.
  const linkStatus = useFreezeLinkStatus(resultOutcome ? null : token);
  const outcome: Outcome | null = resultOutcome ?? (linkStatus.data?.alreadyFrozen ? "already-frozen" : null);
  const { reset } = freeze;

  // A second link opened in the same tab changes only the fragment: start over with its token.
  useEffect(() => {
    const onHashChange = () => {
      setToken(readToken());
      reset();
    };
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, [reset]);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const checkFailure = linkStatus.isError ? failureOf(linkStatus.error) : null;
  // A check that failed for no reason of the link's (network, 5xx) leaves the button to try.
  const failure = freeze.isError
    ? failureOf(freeze.error)
    : checkFailure && checkFailure !== "other"
      ? checkFailure
      : null;

  // Move focus to the new heading when the page's state changes, so a screen reader hears the result.
  useEffect(() => {
    if (failure || outcome) headingRef.current?.focus();
  }, [failure, outcome]);

  const onFreeze = () => {
    if (!token) return;
    freeze.mutate(
      { token },
      {
        // A full load: the sessions just ended, so the app starts again signed out on the result view.
        onSuccess: (result) => {
          window.location.replace(
            `/this-wasnt-me?${RESULT_PARAM}=${result.alreadyFrozen ? "already-frozen" : "frozen"}`,
          );
        },
      },
    );
  };

  if (outcome) {
    const isFirst = outcome === "frozen";
    return (
      <AuthShell
        back={{ label: "Home", href: "/" }}
        title="Your account is frozen"
        description="Nobody can sign in or send money until you reset your password."
      >
        <Notice
          tone="positive"
          title={isFirst ? "Done. Your account is frozen" : "Your account was already frozen"}
          headingRef={headingRef}
        >
          <ul className="grid list-disc gap-1 pl-5 text-sm text-ink">
            <li>Every device was signed out.</li>
            <li>New transfers are stopped, and pending ones are flagged for review.</li>
            <li>Our support team has been alerted and will contact you.</li>
          </ul>
          <p className="text-sm text-ink">
            Reset your password to sign in again. Support lifts the freeze once they have checked your
            account.
          </p>
          <Button asChild size="lg">
            <Link href="/forgot-password">Reset my password</Link>
          </Button>
          <SupportLine />
        </Notice>
      </AuthShell>
    );
  }

  if (!token || failure) {
    const { title, text } = FAILURES[failure ?? "invalid"];
    return (
      <AuthShell back={{ label: "Home", href: "/" }} title="This wasn't me" description="Freeze your account">
        <Notice tone="negative" title={title} headingRef={headingRef}>
          <p className="text-sm text-ink">{text}</p>
          {failure === "other" ? (
            <Button size="lg" variant="destructive" onClick={onFreeze} disabled={freeze.isPending}>
              {freeze.isPending ? <Spinner className="size-4 text-white" label="Freezing" /> : null}
              Try again
            </Button>
          ) : null}
          <SupportLine />
        </Notice>
      </AuthShell>
    );
  }

  if (linkStatus.isPending && linkStatus.fetchStatus !== "idle") {
    return (
      <AuthShell back={{ label: "Home", href: "/" }} title="This wasn't me" description="Checking your link">
        <div className="flex justify-center py-6">
          <Spinner className="size-6" label="Checking your link" />
        </div>
      </AuthShell>
    );
  }

  const isBusy = freeze.isPending || freeze.isSuccess;
  return (
    <AuthShell
      back={{ label: "Home", href: "/" }}
      title="This wasn't me"
      description="Didn't make a change we e-mailed you about? Freeze your account now."
    >
      <div className="grid gap-4">
        <div className="flex items-start gap-3 rounded-lg bg-negative-soft p-4 text-sm text-ink">
          <ShieldAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-negative" />
          <div className="grid gap-2">
            <p className="font-medium">When you freeze your account, we will:</p>
            <ul className="grid list-disc gap-1 pl-5">
              <li>sign out every device, including this one,</li>
              <li>stop new transfers and flag pending ones for review,</li>
              <li>alert our support team.</li>
            </ul>
          </div>
        </div>
        <p className="text-sm text-ink-muted">
          Afterwards you reset your password to sign in again. Your money stays safe in your account.
        </p>
        <Button size="lg" variant="destructive" onClick={onFreeze} disabled={isBusy}>
          {isBusy ? <Spinner className="size-4 text-white" label="Freezing your account" /> : null}
          Freeze my account
        </Button>
        <Button asChild variant="ghost">
          <Link href="/">It was me, take me back</Link>
        </Button>
      </div>
    </AuthShell>
  );
}
