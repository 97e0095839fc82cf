import type { MoneyRequest } from "@/contract/money-requests";
import { errorMessage } from "@/web/components/toast-error";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/web/components/ui/alert-dialog";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import {
  useBlockRequester,
  useRequestBlocks,
  useUnblockRequester,
} from "@/web/features/tag-payments/api/money-requests";
import { isUnauthorized } from "@/web/lib/api";
import { formatDateTime } from "@/web/lib/format";

const toastFailure = (title: string) => (error: Error) => {
  if (isUnauthorized(error)) return;
  toast({ title, description: errorMessage(error, "Please try again."), variant: "destructive" });
};

/**
 * "Block" on a request the customer received (decision 037's amendment). The requester is not told: their
 * requests keep looking sent to them, and none reaches this customer until they unblock.
 */
export function BlockRequesterButton({ request }: { request: MoneyRequest }) {
  const block = useBlockRequester();
  const onConfirm = () =>
    block.mutate(request.id, {
      onSuccess: (data) => toast({ title: data.message }),
      onError: toastFailure("Couldn't block"),
    });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button
          size="sm"
          variant="ghost"
          disabled={block.isPending}
          aria-label={`Block ${request.otherTag} from sending you requests`}
        >
          {block.isPending ? <Spinner className="size-4" label="Blocking" /> : null}
          Block
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{`Block ${request.otherTag}?`}</AlertDialogTitle>
          <AlertDialogDescription>
            {`You will no longer receive money requests from ${request.otherTag}, and their open requests leave your list. They are not told. You can unblock them later under "Blocked requesters".`}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep receiving</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>{`Block ${request.otherTag}`}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function UnblockButton({ id, tag }: { id: string; tag: string }) {
  const unblock = useUnblockRequester();
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={unblock.isPending}
      aria-label={`Unblock ${tag}`}
      onClick={() =>
        unblock.mutate(id, {
          onSuccess: (data) => toast({ title: data.message }),
          onError: toastFailure("Couldn't unblock"),
        })
      }
    >
      {unblock.isPending ? <Spinner className="size-4" label="Unblocking" /> : null}
      Unblock
    </Button>
  );
}

/** The requesters this customer blocked, each with "Unblock". */
export function BlockedRequesters() {
  const query = useRequestBlocks();
  const blocks = query.data?.pages.flatMap((p) => p.blocks) ?? [];
  return (
    <section aria-labelledby="blocked-requesters" className="grid gap-1">
      <h2 id="blocked-requesters" className="text-sm font-semibold text-ink">
        Blocked requesters
      </h2>
      {query.isPending ? (
        <Skeleton className="h-5 w-2/3" aria-hidden />
      ) : query.isError ? (
        <div className="flex flex-wrap items-center gap-2 rounded-lg bg-negative-soft p-3 text-sm text-negative">
          <p>We couldn't load who you blocked.</p>
          <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      ) : blocks.length === 0 ? (
        <p className="py-2 text-sm text-ink-muted">
          No one. Block a requester from a request they sent you; they are not told.
        </p>
      ) : (
        <>
          <ul className="divide-y divide-line" aria-label="Blocked requesters">
            {blocks.map((b) => (
              <li key={b.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div className="grid min-w-0 gap-0.5">
                  <p className="text-sm text-ink">
                    <strong className="font-medium">{b.name || b.tag}</strong>{" "}
                    <span className="text-ink-muted">({b.tag})</span>
                  </p>
                  <p className="text-xs text-ink-subtle">Blocked {formatDateTime(b.createdAt)}</p>
                </div>
                <UnblockButton id={b.id} tag={b.tag} />
              </li>
            ))}
          </ul>
          {query.hasNextPage ? (
            <Button
              variant="secondary"
              size="sm"
              className="justify-self-start"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {query.isFetchingNextPage ? <Spinner className="size-4" label="Loading" /> : null}
              Show more
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
