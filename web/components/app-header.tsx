import { LogOut, ShieldCheck } from "lucide-react";
import { Link } from "wouter";
import type { CurrentUser } from "@/contract/auth";
import { BRAND } from "@/contract/brand";
import { SkipLink } from "@/web/components/skip-link";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { Logo, LogoMark } from "@/web/components/ui/logo";
import { initials } from "@/web/lib/format";

/** Logout is a page navigation, not a data call (spec §7): the server clears the cookie and redirects. */
function logout() {
  window.location.href = "/api/logout";
}

/** The signed-in top bar: brand, greeting, Admin Panel (admins only), avatar to /settings, Logout. */
export function AppHeader({ user }: { user: Pick<CurrentUser, "firstName" | "lastName" | "isAdmin"> }) {
  return (
    <>
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-line bg-surface/95 backdrop-blur supports-[backdrop-filter]:bg-surface/85">
        <Container className="flex h-16 items-center justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            <Link href="/dashboard" className="rounded-md" aria-label={`${BRAND.name} dashboard`}>
              <Logo className="hidden sm:inline-flex" />
              <LogoMark className="sm:hidden" />
            </Link>
            <p className="min-w-0 truncate border-l border-line pl-3 text-sm text-ink-muted">
              Hello, <span className="font-semibold text-ink">{user.firstName}</span>
            </p>
          </div>
          <nav aria-label="Account" className="flex shrink-0 items-center gap-1 sm:gap-2">
            {user.isAdmin ? (
              <Button asChild variant="secondary" size="sm">
                <Link href="/admin" aria-label="Admin Panel">
                  <ShieldCheck aria-hidden />
                  <span className="hidden sm:inline">Admin Panel</span>
                </Link>
              </Button>
            ) : null}
            <Link
              href="/settings"
              title="Settings"
              className="flex size-9 items-center justify-center rounded-full bg-brand-800 text-sm font-semibold text-white hover:bg-brand-700"
            >
              {/* The initials are decoration; the link's name is "Settings" (axe: label-content-name-mismatch). */}
              <span aria-hidden>{initials(user.firstName, user.lastName)}</span>
              <span className="sr-only">Settings</span>
            </Link>
            <Button variant="ghost" size="sm" onClick={logout} aria-label="Logout">
              <LogOut aria-hidden />
              <span className="hidden sm:inline">Logout</span>
            </Button>
          </nav>
        </Container>
      </header>
    </>
  );
}
