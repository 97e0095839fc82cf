import type { LucideIcon } from "lucide-react";
import { Card } from "@/web/components/ui/card";

/** A tab whose queue ships later: says what will live here, without pretending to load anything. */
export function ComingSoonTab({
  icon: Icon,
  title,
  description,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
}) {
  return (
    <Card className="flex flex-col items-center gap-2 px-6 py-14 text-center">
      <span className="mb-1 flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="size-6" aria-hidden />
      </span>
      <h2 className="text-base font-semibold text-ink">{title}</h2>
      <p className="max-w-md text-sm text-ink-muted">{description}</p>
    </Card>
  );
}
