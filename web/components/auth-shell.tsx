import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { Button } from "@/web/components/ui/button";
import { Logo } from "@/web/components/ui/logo";

/** The signed-out card layout shared by /auth and /forgot-password. */
export function AuthShell({
  back,
  title,
  description,
  children,
}: {
  back: { label: string; href?: string; onClick?: () => void };
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col bg-canvas">
      <header className="mx-auto flex w-full max-w-md items-center justify-between px-4 pt-6">
        {back.href ? (
          <Button asChild variant="ghost" className="-ml-3">
            <Link href={back.href}>
              <ArrowLeft aria-hidden />
              {back.label}
            </Link>
          </Button>
        ) : (
          <Button variant="ghost" className="-ml-3" onClick={back.onClick}>
            <ArrowLeft aria-hidden />
            {back.label}
          </Button>
        )}
      </header>
      <main className="mx-auto flex w-full max-w-md flex-1 flex-col px-4 pt-6 pb-12">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <Logo />
          <h1 className="text-2xl font-semibold tracking-tight text-ink">{title}</h1>
          <p className="text-sm text-ink-muted">{description}</p>
        </div>
        <div className="rounded-card border border-line bg-surface p-6 shadow-card">{children}</div>
      </main>
    </div>
  );
}
