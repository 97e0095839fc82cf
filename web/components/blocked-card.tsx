import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "@/web/components/ui/card";
import { cn } from "@/web/lib/cn";

const TONES = {
  brand: "bg-brand-50 text-brand-700",
  negative: "bg-negative-soft text-negative",
} as const;

/** A screen the customer cannot use yet: why, and the one way forward. */
export function BlockedCard({
  icon: Icon,
  tone,
  headingLevel,
  title,
  description,
  action,
}: {
  icon: LucideIcon;
  tone: keyof typeof TONES;
  /** h1 where the card is the page's only heading, h2 under the page's own title. */
  headingLevel: "h1" | "h2";
  title: string;
  description: string;
  action: ReactNode;
}) {
  const Heading = headingLevel;
  return (
    <Card className="mx-auto grid w-full max-w-lg justify-items-center gap-3 px-6 py-10 text-center">
      <span className={cn("flex size-12 items-center justify-center rounded-full", TONES[tone])}>
        <Icon className="size-6" aria-hidden />
      </span>
      <Heading className="text-xl font-semibold tracking-tight text-ink">{title}</Heading>
      <p className="text-sm text-ink-muted">{description}</p>
      {action}
    </Card>
  );
}
