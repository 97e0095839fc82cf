import type { ReactNode } from "react";
import { Container } from "@/web/components/ui/container";

/** The closing call to action of a page: a deep-blue panel with a heading, one line and its buttons. */
export function CtaBand({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="cta-title" className="bg-surface py-16 sm:py-20">
      <Container>
        <div className="relative overflow-hidden rounded-card bg-brand-800 px-6 py-12 text-center shadow-raised sm:px-12 sm:py-16">
          <div
            aria-hidden
            className="pointer-events-none absolute -top-24 -right-24 size-72 rounded-full bg-brand-700/60"
          />
          <div
            aria-hidden
            className="pointer-events-none absolute -bottom-32 -left-20 size-72 rounded-full bg-brand-900/50"
          />
          <div className="relative mx-auto flex max-w-2xl flex-col items-center gap-4">
            <h2
              id="cta-title"
              className="text-3xl font-semibold tracking-tight text-balance text-white sm:text-4xl"
            >
              {title}
            </h2>
            <p className="text-base leading-7 text-pretty text-brand-100 sm:text-lg">{description}</p>
            <div className="mt-4 flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row">
              {children}
            </div>
          </div>
        </div>
      </Container>
    </section>
  );
}
