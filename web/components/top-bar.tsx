import type { ReactNode } from "react";
import { Link } from "wouter";
import { BRAND } from "@/contract/brand";
import { SkipLink } from "@/web/components/skip-link";
import { Container } from "@/web/components/ui/container";
import { Logo, LogoMark } from "@/web/components/ui/logo";
import { cn } from "@/web/lib/cn";
import { initials } from "@/web/lib/format";

/**
 * The signed-in screens' sticky bar: skip link, the brand back home (the dashboard, or the back office for
 * staff, who never bank), a label beside it, then `children`.
 */
export function TopBar({
  label,
  labelClassName,
  isStaff = false,
  children,
}: {
  label: ReactNode;
  labelClassName: string;
  isStaff?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-line bg-surface/95 backdrop-blur supports-[backdrop-filter]:bg-surface/85">
        <Container className="flex h-16 items-center justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            <Link
              href={isStaff ? "/admin" : "/dashboard"}
              className="rounded-md"
              aria-label={`${BRAND.name} ${isStaff ? "back office" : "dashboard"}`}
            >
              <Logo className="hidden sm:inline-flex" />
              <LogoMark className="sm:hidden" />
            </Link>
            <p className={cn("min-w-0 truncate border-l border-line pl-3 text-sm", labelClassName)}>
              {label}
            </p>
          </div>
          {children}
        </Container>
      </header>
    </>
  );
}

/** The user's initials, linking to /settings. */
export function SettingsAvatarLink({
  user,
  title,
  className,
}: {
  user: { firstName: string; lastName: string };
  title: string;
  className?: string;
}) {
  return (
    <Link
      href="/settings"
      title={title}
      className={cn(
        "flex size-9 items-center justify-center rounded-full bg-brand-800 text-sm font-semibold text-white hover:bg-brand-700",
        className,
      )}
    >
      {/* The initials are decoration; the link's name is "Settings" (axe: label-content-name-mismatch). */}
      <span aria-hidden>{initials(user.firstName, user.lastName)}</span>
      <span className="sr-only">Settings</span>
    </Link>
  );
}
