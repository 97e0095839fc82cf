import { ChevronRight, LayoutDashboard, LifeBuoy, Send } from "lucide-react";
import { Link } from "wouter";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";

const ACTIONS = [
  { label: "Dashboard", href: "/dashboard", icon: LayoutDashboard },
  { label: "Send Money", href: "/send-money", icon: Send },
  { label: "Contact Support", href: "/contact", icon: LifeBuoy },
] as const;

export function SettingsQuickActions() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Quick Actions</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2">
          {ACTIONS.map(({ label, href, icon: Icon }) => (
            <li key={href}>
              <Link
                href={href}
                className="flex items-center gap-3 rounded-lg border border-line px-3 py-2.5 text-sm font-medium text-ink hover:border-brand-200 hover:bg-brand-50/60"
              >
                <Icon className="size-4 text-brand-700" aria-hidden />
                <span className="flex-1">{label}</span>
                <ChevronRight className="size-4 text-ink-subtle" aria-hidden />
              </Link>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
