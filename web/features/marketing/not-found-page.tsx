import { ArrowLeft, House } from "lucide-react";
import { useState } from "react";
import { Link } from "wouter";
import { BRAND } from "@/contract/brand";
import { Button } from "@/web/components/ui/button";
import { Logo } from "@/web/components/ui/logo";
import { NOT_FOUND_MESSAGES } from "@/web/features/marketing/not-found-messages";
import { useDocumentTitle } from "@/web/lib/use-document-title";

function pickMessage(): string {
  return NOT_FOUND_MESSAGES[Math.floor(Math.random() * NOT_FOUND_MESSAGES.length)];
}

/** Shown for any unknown path, signed in or out, so it carries its own minimal frame rather than the marketing nav. */
export default function NotFoundPage() {
  useDocumentTitle("Page Not Found");
  const [message] = useState(pickMessage);

  return (
    <div className="flex min-h-dvh flex-col bg-canvas">
      <header className="border-b border-line bg-surface">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center px-4 sm:px-6 lg:px-8">
          <Link href="/" className="rounded-md" aria-label={`${BRAND.name} home`}>
            <Logo />
          </Link>
        </div>
      </header>

      <main className="flex flex-1 items-center justify-center px-4 py-16">
        <div className="flex w-full max-w-lg flex-col items-center rounded-card border border-line bg-surface px-6 py-12 text-center shadow-card sm:px-10">
          <p
            aria-hidden
            className="text-7xl font-semibold tracking-tight text-brand-800 tabular-nums sm:text-8xl"
          >
            404
          </p>
          <h1 className="mt-6 text-2xl font-semibold tracking-tight text-balance text-ink sm:text-3xl">
            Whoops! Page Not Found
          </h1>
          <p className="mt-3 text-base leading-7 text-pretty text-ink-muted">{message}</p>
          <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            <Button asChild size="lg">
              <Link href="/">
                <House aria-hidden />
                Take Me Home
              </Link>
            </Button>
            <Button variant="secondary" size="lg" onClick={() => window.history.back()}>
              <ArrowLeft aria-hidden />
              Go Back
            </Button>
          </div>
        </div>
      </main>

      <footer className="py-6 text-center text-xs text-ink-muted">
        Need help? E-mail{" "}
        <a
          href={`mailto:${BRAND.supportEmail}`}
          className="rounded-sm font-medium text-brand-600 hover:underline"
        >
          {BRAND.supportEmail}
        </a>
      </footer>
    </div>
  );
}
