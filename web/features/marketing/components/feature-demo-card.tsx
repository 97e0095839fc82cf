import { Check } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { Badge } from "@/web/components/ui/badge";
import { Card } from "@/web/components/ui/card";
import { Label } from "@/web/components/ui/label";
import { Switch } from "@/web/components/ui/switch";
import { toast } from "@/web/components/ui/use-toast";

export type CoreFeature = {
  title: string;
  description: string;
  points: string[];
  icon: ReactNode;
};

/** A core feature with a demo switch. Demos are not built yet, so switching one on says so. */
export function FeatureDemoCard({ feature }: { feature: CoreFeature }) {
  const [isDemoOn, setDemoOn] = useState(false);
  const switchId = useId();

  function onDemoChange(checked: boolean) {
    setDemoOn(checked);
    if (checked) {
      toast({
        title: `${feature.title} demo is coming soon`,
        description: "Interactive demos are on their way. Open a free account to try the real thing today.",
      });
    }
  }

  return (
    <Card className="flex h-full flex-col gap-4 p-6">
      <div className="flex items-start justify-between gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700 [&_svg]:size-5">
          {feature.icon}
        </span>
        {isDemoOn ? <Badge tone="pending">Demo coming soon</Badge> : null}
      </div>
      <div className="flex flex-col gap-2">
        <h3 className="text-lg font-semibold text-ink">{feature.title}</h3>
        <p className="text-sm leading-6 text-ink-muted">{feature.description}</p>
      </div>
      <ul className="flex flex-col gap-2">
        {feature.points.map((point) => (
          <li key={point} className="flex items-start gap-2 text-sm text-ink">
            <Check className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden />
            {point}
          </li>
        ))}
      </ul>
      <div className="mt-auto flex items-center justify-between gap-4 border-t border-line pt-4">
        <Label htmlFor={switchId} className="cursor-pointer">
          Try the demo
        </Label>
        <Switch id={switchId} checked={isDemoOn} onCheckedChange={onDemoChange} />
      </div>
    </Card>
  );
}
