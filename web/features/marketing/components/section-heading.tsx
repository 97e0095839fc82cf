import type { ReactNode } from "react";
import { cn } from "@/web/lib/cn";

/** Eyebrow, h2 and lead paragraph, used to open every marketing section the same way. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  description,
  align = "center",
  className,
}: {
  id?: string;
  eyebrow?: string;
  title: ReactNode;
  description?: ReactNode;
  align?: "center" | "left";
  className?: string;
}) {
  return (
    <div
      className={cn("flex max-w-2xl flex-col gap-3", align === "center" && "mx-auto text-center", className)}
    >
      {eyebrow ? (
        <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">{eyebrow}</p>
      ) : null}
      <h2 id={id} className="text-3xl font-semibold tracking-tight text-balance text-ink sm:text-4xl">
        {title}
      </h2>
      {description ? (
        <p className="text-base leading-7 text-pretty text-ink-muted sm:text-lg">{description}</p>
      ) : null}
    </div>
  );
}
