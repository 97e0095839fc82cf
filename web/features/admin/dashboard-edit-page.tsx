import { ArrowLeft, LayoutTemplate } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Container } from "@/web/components/ui/container";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useAdminUser } from "@/web/features/admin/api/get-admin-user";
import { useCurrentUser } from "@/web/lib/current-user";
import { formatHandle } from "@/web/lib/format";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** Opened in its own tab from User Details, so "Back to Admin" closes the tab. */
export default function DashboardEditPage({ params }: { params: { userId: string } }) {
  const { data: me } = useCurrentUser();
  const target = useAdminUser(params.userId, { enabled: me?.isAdmin === true });
  useDocumentTitle("Dashboard Content Editor");
  return (
    <main className="min-h-dvh bg-canvas py-10">
      <Container className="grid max-w-3xl gap-6">
        <Button variant="ghost" className="-ml-3 justify-self-start" onClick={() => window.close()}>
          <ArrowLeft aria-hidden />
          Back to Admin
        </Button>
        <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <LayoutTemplate className="size-6" aria-hidden />
          </span>
          <h1 className="text-2xl font-semibold tracking-tight text-ink">Dashboard Content Editor</h1>
          {target.isPending && me?.isAdmin ? (
            <Skeleton className="h-4 w-48" />
          ) : target.data ? (
            <p className="text-sm text-ink-muted">
              {target.data.firstName} {target.data.lastName} · {formatHandle(target.data.pillarTag)}
            </p>
          ) : target.isError ? (
            <p className="text-sm text-negative">We couldn't load this user.</p>
          ) : null}
          <p className="max-w-md text-sm text-ink-muted">
            Editing this customer's dashboard titles, labels and card text with a live preview is coming soon.
          </p>
        </Card>
      </Container>
    </main>
  );
}
