import type { ReactNode } from "react";
import { Container } from "@/web/components/ui/container";

/** The opening band of an inner marketing page: eyebrow, the page's only h1, and a lead paragraph. */
export function PageHero({
  eyebrow,
  title,
  description,
  children,
}: {
  eyebrow: string;
  title: ReactNode;
  description: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section
      aria-labelledby="page-title"
      className="border-b border-line bg-linear-to-b from-brand-50 to-surface"
    >
      <Container className="flex flex-col items-center gap-5 py-16 text-center sm:py-24">
        <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">{eyebrow}</p>
        <h1
          id="page-title"
          className="max-w-3xl text-4xl leading-[1.1] font-semibold tracking-tight text-balance text-ink sm:text-5xl"
        >
          {title}
        </h1>
        <p className="max-w-2xl text-lg leading-8 text-pretty text-ink-muted">{description}</p>
        {children}
      </Container>
    </section>
  );
}
