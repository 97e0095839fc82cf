import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { type AppTab, AppTabs } from "@/web/components/app-tabs";
import { NotificationBell } from "@/web/components/notification-bell";
import { MAIN_PROPS } from "@/web/components/skip-link";
import { SettingsAvatarLink, TopBar } from "@/web/components/top-bar";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { useSignedInUser } from "@/web/lib/current-user";

/**
 * The money screens' frame: logo, the screen's title, the user's initials, the tabs and the way back,
 * plus the notification bell for customers, as on every signed-in page (decision 034).
 */
export function MoneyShell({ title, tab, children }: { title: string; tab: AppTab; children: ReactNode }) {
  const user = useSignedInUser();
  return (
    <div className="min-h-dvh bg-canvas">
      <TopBar label={title} labelClassName="font-semibold text-ink">
        <nav aria-label="Account" className="flex shrink-0 items-center gap-1 sm:gap-2">
          {user.isAdmin ? null : <NotificationBell />}
          <SettingsAvatarLink user={user} title={`${user.firstName} ${user.lastName}`} className="shrink-0" />
        </nav>
      </TopBar>
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
