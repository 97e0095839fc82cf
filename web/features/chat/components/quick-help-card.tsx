import {
  ArrowLeftRight,
  BadgeCheck,
  ChevronRight,
  FileText,
  HelpCircle,
  KeyRound,
  Wallet,
} from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";

const TOPICS = [
  { label: "Account verification", icon: BadgeCheck },
  { label: "Transfer issues", icon: ArrowLeftRight },
  { label: "Password reset", icon: KeyRound },
  { label: "KYC applications", icon: FileText },
  { label: "Balance inquiries", icon: Wallet },
] as const;

/** Common topics; picking one starts a message about it in the chat box. */
export function QuickHelpCard({ onPickTopic }: { onPickTopic: (topic: string) => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <HelpCircle className="size-4 text-brand-700" aria-hidden />
          Quick Help
        </CardTitle>
        <CardDescription>Common topics we can help with</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-1.5">
          {TOPICS.map(({ label, icon: Icon }) => (
            <li key={label}>
              <button
                type="button"
                onClick={() => onPickTopic(label)}
                className="flex w-full items-center gap-3 rounded-lg border border-line px-3 py-2 text-left text-sm text-ink transition-colors hover:border-brand-200 hover:bg-brand-50/60"
              >
                <Icon className="size-4 shrink-0 text-brand-700" aria-hidden />
                <span className="flex-1">{label}</span>
                <ChevronRight className="size-4 shrink-0 text-ink-subtle" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
