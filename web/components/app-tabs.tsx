import { BarChart3, LayoutDashboard, Send, Settings } from "lucide-react";
import { Link } from "wouter";
import { cn } from "@/web/lib/cn";

const TABS = [
  { href: "/dashboard", label: "Dashboard", icon: LayoutDashboard },
  { href: "/send-money", label: "Send Money", icon: Send },
  { href: "/analytics", label: "Analytics", icon: BarChart3 },
  { href: "/settings", label: "Settings", icon: Settings },
] as const;

export type AppTab = (typeof TABS)[number]["href"];

/** The Dashboard / Send Money / Analytics / Settings bar on the money screens. Links, not panels. */
export function AppTabs({ active, className }: { active: AppTab; className?: string }) {
  return (
    <nav aria-label="Sections" className={cn("w-full min-w-0 sm:w-auto", className)}>
      <ul className="grid grid-cols-4 gap-1 rounded-lg bg-brand-50 p-1 sm:inline-flex sm:items-center">
        {TABS.map(({ href, label, icon: Icon }) => {
          const isActive = href === active;
          return (
            <li key={href}>
              <Link
                href={href}
                aria-current={isActive ? "page" : undefined}
                className={cn(
                  "flex items-center justify-center gap-2 whitespace-nowrap rounded-md px-1 py-1.5 text-xs font-medium text-ink-muted transition-colors hover:text-ink sm:px-3 sm:text-sm",
                  isActive && "bg-surface text-ink shadow-card",
                )}
              >
                <Icon className="hidden size-4 sm:block" aria-hidden />
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
