import { AlertCircle } from "lucide-react";
import { useLocation } from "wouter";
import { AdminShell, BackLabel } from "@/web/components/admin/admin-shell";
import { useAdminGate } from "@/web/components/admin/use-admin-gate";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { useDashboardContent } from "@/web/features/content/admin/api/get-dashboard-content";
import { DashboardContentEditor } from "@/web/features/content/admin/dashboard-content-editor";
import { useAdminUser } from "@/web/features/users/admin/api/get-admin-user";
import { useCurrentUser } from "@/web/lib/current-user";
import { formatHandle } from "@/web/lib/format";
import { useDocumentTitle } from "@/web/lib/use-document-title";

function EditorSkeleton() {
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_28rem]" aria-busy="true">
      <span className="sr-only">Loading dashboard content</span>
      <Card className="grid gap-4 p-6">
        <Skeleton className="h-5 w-40" />
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <div key={i} className="grid gap-1.5">
            <Skeleton className="h-3.5 w-28" />
            <Skeleton className="h-10 w-full" />
          </div>
        ))}
      </Card>
      <Skeleton className="h-[28rem] w-full rounded-card" />
    </div>
  );
}

/** /dashboard-edit/{userId}: opened in its own tab from User Details, so "Back to Admin" closes it. */
export default function DashboardEditPage({ params }: { params: { userId: string } }) {
  const { data: me } = useCurrentUser();
  const isAdmin = me?.isAdmin === true;
  useAdminGate(isAdmin);
  const [, navigate] = useLocation();
  const target = useAdminUser(params.userId, { enabled: isAdmin });
  const content = useDashboardContent(params.userId, { enabled: isAdmin });
  useDocumentTitle("Dashboard Content Editor");
  if (!isAdmin) return <FullScreenSpinner />;

  const onBack = () => {
    window.close();
    // Opened directly (not as its own tab) the browser keeps the window open: go to the back office instead.
    setTimeout(() => {
      if (!window.closed) navigate("/admin");
    }, 150);
  };
  const isError = target.isError || content.isError;

  return (
    <AdminShell
      title="Dashboard Content Editor"
      subtitle={
        target.data ? (
          <p className="truncate text-xs text-ink-muted">
            {target.data.firstName} {target.data.lastName} · {formatHandle(target.data.pillarTag)}
          </p>
        ) : target.isPending ? (
          <Skeleton className="mt-1 h-3 w-36" />
        ) : null
      }
      back={
        <Button variant="secondary" size="sm" onClick={onBack}>
          <BackLabel to="Admin" />
        </Button>
      }
      mainClassName="py-8"
    >
      {isError ? (
        <Card className="flex flex-col items-start gap-3 p-6">
          <p className="flex items-center gap-2 text-sm text-negative">
            <AlertCircle className="size-4 shrink-0" aria-hidden />
            We couldn't load this customer's dashboard content. The user may have been deleted.
          </p>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              void target.refetch();
              void content.refetch();
            }}
          >
            Try again
          </Button>
        </Card>
      ) : target.data && content.data ? (
        <DashboardContentEditor key={target.data.id} user={target.data} content={content.data} />
      ) : (
        <EditorSkeleton />
      )}
    </AdminShell>
  );
}
