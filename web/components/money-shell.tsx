import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { BRAND } from "@/contract/brand";
import { type AppTab, AppTabs } from "@/web/components/app-tabs";
import { MAIN_PROPS, SkipLink } from "@/web/components/skip-link";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { Logo, LogoMark } from "@/web/components/ui/logo";
import { useSignedInUser } from "@/web/lib/current-user";
import { initials } from "@/web/lib/format";

/** The money screens' frame (spec §2): logo, the screen's title, the user's initials, the tabs and the way back. */
export function MoneyShell({ title, tab, children }: { title: string; tab: AppTab; children: ReactNode }) {
  const user = useSignedInUser();
  return (
    <div className="min-h-dvh bg-canvas">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-line bg-surface/95 backdrop-blur supports-[backdrop-filter]:bg-surface/85">
        <Container className="flex h-16 items-center justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            <Link href="/dashboard" className="rounded-md" aria-label={`${BRAND.name} dashboard`}>
              <Logo className="hidden sm:inline-flex" />
              <LogoMark className="sm:hidden" />
            </Link>
            <p className="min-w-0 truncate border-l border-line pl-3 text-sm font-semibold text-ink">
              {title}
            </p>
          </div>
          <Link
            href="/settings"
            title={`${user.firstName} ${user.lastName}`}
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-800 text-sm font-semibold text-white hover:bg-brand-700"
          >
            {/* The initials are decoration; the link's name is "Settings" (axe: label-content-name-mismatch). */}
            <span aria-hidden>{initials(user.firstName, user.lastName)}</span>
            <span className="sr-only">Settings</span>
          </Link>
        </Container>
      </header>
      <main {...MAIN_PROPS} className="focus-visible:outline-none">
        <Container className="grid grid-cols-[minmax(0,1fr)] gap-6 py-6 sm:py-8">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <AppTabs active={tab} />
            <Button asChild variant="ghost" size="sm">
              <Link href="/dashboard">
                <ArrowLeft aria-hidden />
                Back to Dashboard
              </Link>
            </Button>
          </div>
          {children}
        </Container>
      </main>
    </div>
  );
}
