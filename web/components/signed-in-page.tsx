import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import type { CurrentUser } from "@/contract/auth";
import { AppHeader } from "@/web/components/app-header";
import { MAIN_PROPS } from "@/web/components/skip-link";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { cn } from "@/web/lib/cn";

/** A signed-in page under the top bar: the way back, the page's heading and its line, then the page. */
export function SignedInPage({
  user,
  back,
  title,
  description,
  className,
  children,
}: {
  user: Pick<CurrentUser, "firstName" | "lastName" | "isAdmin">;
  back: { href: string; label: string };
  title: ReactNode;
  description: ReactNode;
  /** Extra classes for the page's container (a narrower column, say). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="min-h-dvh bg-canvas">
      <AppHeader user={user} />
      <main {...MAIN_PROPS} className="focus-visible:outline-none">
        <Container className={cn("grid gap-6 py-8", className)}>
          <div className="grid gap-2">
            <Button asChild variant="ghost" size="sm" className="-ml-3 justify-self-start">
              <Link href={back.href}>
                <ArrowLeft aria-hidden />
                {back.label}
              </Link>
            </Button>
            <h1 className="text-2xl font-semibold tracking-tight text-ink">{title}</h1>
            <p className="text-sm text-ink-muted">{description}</p>
          </div>
          {children}
        </Container>
      </main>
    </div>
  );
}
