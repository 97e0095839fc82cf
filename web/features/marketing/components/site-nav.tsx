import { Menu, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { BRAND } from "@/contract/brand";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { Logo } from "@/web/components/ui/logo";
import { cn } from "@/web/lib/cn";

export const NAV_LINKS = [
  { href: "/", label: "Home" },
  { href: "/about", label: "About" },
  { href: "/features", label: "Features" },
] as const;

export type SiteNavProps = {
  /** `back` shows a '← Back' button in place of the links. */
  variant?: "links" | "back";
  /** Called by '← Back'; without it the button goes to /. */
  onBack?: () => void;
};

export function SiteNav({ variant = "links", onBack }: SiteNavProps) {
  const [location, navigate] = useLocation();
  const [isMenuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  // Escape closes the phone menu and hands focus back to the button that opened it.
  useEffect(() => {
    if (!isMenuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [isMenuOpen]);

  const isBack = variant === "back";

  return (
    <header className="sticky top-0 z-40 border-b border-line bg-surface/95 backdrop-blur supports-[backdrop-filter]:bg-surface/85">
      <Container className="flex h-16 items-center justify-between gap-4">
        <Link
          href="/"
          className="rounded-md"
          aria-label={`${BRAND.name} home`}
          onClick={() => setMenuOpen(false)}
        >
          <Logo />
        </Link>

        {isBack ? (
          <Button variant="ghost" onClick={onBack ?? (() => navigate("/"))}>
            ← Back
          </Button>
        ) : (
          <>
            <nav aria-label="Main" className="hidden md:block">
              <ul className="flex items-center gap-1">
                {NAV_LINKS.map((link) => (
                  <li key={link.href}>
                    <NavLink href={link.href} label={link.label} isActive={location === link.href} />
                  </li>
                ))}
              </ul>
            </nav>
            <div className="flex items-center gap-2">
              <Button asChild>
                <Link href="/auth">Login</Link>
              </Button>
              <Button
                ref={toggleRef}
                variant="ghost"
                size="icon"
                className="md:hidden"
                aria-expanded={isMenuOpen}
                aria-controls={menuId}
                aria-label={isMenuOpen ? "Close menu" : "Open menu"}
                onClick={() => setMenuOpen((open) => !open)}
              >
                {isMenuOpen ? <X aria-hidden /> : <Menu aria-hidden />}
              </Button>
            </div>
          </>
        )}
      </Container>

      {!isBack && isMenuOpen ? (
        <nav id={menuId} aria-label="Main" className="border-t border-line bg-surface md:hidden">
          <Container className="py-2">
            <ul className="flex flex-col">
              {NAV_LINKS.map((link) => (
                <li key={link.href}>
                  <NavLink
                    href={link.href}
                    label={link.label}
                    isActive={location === link.href}
                    className="flex h-11 w-full px-3 text-base"
                    onClick={() => setMenuOpen(false)}
                  />
                </li>
              ))}
            </ul>
          </Container>
        </nav>
      ) : null}
    </header>
  );
}

function NavLink({
  href,
  label,
  isActive,
  className,
  onClick,
}: {
  href: string;
  label: string;
  isActive: boolean;
  className?: string;
  onClick?: () => void;
}) {
  return (
    <Link
      href={href}
      onClick={onClick}
      aria-current={isActive ? "page" : undefined}
      className={cn(
        "inline-flex h-9 items-center rounded-md px-3 text-sm font-medium transition-colors",
        isActive ? "bg-brand-50 text-brand-800" : "text-ink-muted hover:bg-canvas hover:text-ink",
        className,
      )}
    >
      {label}
    </Link>
  );
}
