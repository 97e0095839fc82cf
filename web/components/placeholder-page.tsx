import { ArrowLeft, Construction } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Container } from "@/web/components/ui/container";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** A signed-in screen that later work fills in: its title, a 'coming soon' note and the way back. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  useDocumentTitle(title);
  return (
    <main className="min-h-dvh bg-canvas py-10">
      <Container className="max-w-2xl">
        <Button asChild variant="ghost" className="-ml-3 mb-6">
          <Link href="/dashboard">
            <ArrowLeft aria-hidden />
            Back to Dashboard
          </Link>
        </Button>
        <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <Construction className="size-6" aria-hidden />
          </span>
          <h1 className="text-2xl font-semibold tracking-tight text-ink">{title}</h1>
          <p className="max-w-md text-sm text-ink-muted">{description}</p>
          <p className="text-sm font-medium text-brand-700">Coming soon</p>
        </Card>
      </Container>
    </main>
  );
}
