import { LogOut, ShieldCheck } from "lucide-react";
import { Link } from "wouter";
import type { CurrentUser } from "@/contract/auth";
import { NotificationBell } from "@/web/components/notification-bell";
import { SettingsAvatarLink, TopBar } from "@/web/components/top-bar";
import { Button } from "@/web/components/ui/button";

/** The signed-in top bar: brand, greeting, Admin Panel (admins) or the notification bell (customers), avatar to /settings, Logout. */
export function AppHeader({ user }: { user: Pick<CurrentUser, "firstName" | "lastName" | "isAdmin"> }) {
  return (
    <TopBar
      label={
        <>
          Hello, <span className="font-semibold text-ink">{user.firstName}</span>
        </>
      }
      labelClassName="text-ink-muted"
      isStaff={user.isAdmin}
    >
      <nav aria-label="Account" className="flex shrink-0 items-center gap-1 sm:gap-2">
        {user.isAdmin ? (
          <Button asChild variant="secondary" size="sm">
            <Link href="/admin" aria-label="Admin Panel">
              <ShieldCheck aria-hidden />
              <span className="hidden sm:inline">Admin Panel</span>
            </Link>
          </Button>
        ) : (
          <NotificationBell />
        )}
        <SettingsAvatarLink user={user} title="Settings" />
        {/* Logout is a page navigation (GET /api/logout), not a data call: the server clears the cookie
            and redirects. A plain link, so it works on the server-drawn dashboard before its script has
            loaded. */}
        <Button asChild variant="ghost" size="sm">
          <a href="/api/logout" aria-label="Logout">
            <LogOut aria-hidden />
            <span className="hidden sm:inline">Logout</span>
          </a>
        </Button>
      </nav>
    </TopBar>
  );
}
