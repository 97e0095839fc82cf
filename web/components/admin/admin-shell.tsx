import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { MAIN_PROPS, SkipLink } from "@/web/components/skip-link";
import { Container } from "@/web/components/ui/container";
import { LogoMark } from "@/web/components/ui/logo";

/** "Back to …" on wide screens, "Back" on phones, for the shell's back button or link. */
export function BackLabel({ to }: { to: string }) {
  return (
    <>
      <ArrowLeft aria-hidden />
      <span className="hidden sm:inline">Back to {to}</span>
      <span className="sm:hidden">Back</span>
    </>
  );
}

/** A full back-office page (/admin, the content editor): a header with the mark, title and a way back, then main. */
export function AdminShell({
  title,
  subtitle,
  back,
  mainClassName,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  back: ReactNode;
  mainClassName: string;
  children: ReactNode;
}) {
  return (
    <div className="min-h-dvh bg-canvas">
      <SkipLink />
      <header className="border-b border-line bg-surface">
        {/* On a phone the way back wraps under the title rather than squeezing it to "A…": the title block keeps
            its full width (up to the row's) and only truncates when the title alone is wider than the row. */}
        <Container className="flex min-h-16 flex-wrap items-center justify-between gap-x-3 gap-y-2 py-2">
          <div className="flex max-w-full shrink-0 items-center gap-3">
            <LogoMark />
            <div className="min-w-0">
              <h1 className="truncate text-base font-semibold text-ink">{title}</h1>
              {subtitle}
            </div>
          </div>
          {back}
        </Container>
      </header>
      <main {...MAIN_PROPS} className="focus-visible:outline-none">
        <Container className={mainClassName}>{children}</Container>
      </main>
    </div>
  );
}
