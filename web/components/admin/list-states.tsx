import { AlertCircle, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { LoadMore, type PagedQuery } from "@/web/components/admin/list-controls";
import { Button } from "@/web/components/ui/button";
import { CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";

/** A row with text and a button; a person with an avatar; a card with a few lines and buttons (KYC). */
export type SkeletonShape = "row" | "person" | "card";

/** The three designed states every fetched admin list shares: loading, error, empty. */
export function ListSkeleton({ label, shape = "row" }: { label: string; shape?: SkeletonShape }) {
  return (
    <ul className="divide-y divide-line" aria-label={label}>
      {[0, 1, 2].map((i) =>
        shape === "card" ? (
          <li key={i} className="grid gap-3 py-5">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-3 w-72 max-w-full" />
            <div className="flex gap-2">
              <Skeleton className="h-8 w-28" />
              <Skeleton className="h-8 w-28" />
            </div>
          </li>
        ) : (
          <li key={i} className="flex items-center gap-4 py-4">
            {shape === "person" ? <Skeleton className="size-9 rounded-full" /> : null}
            <div className="grid flex-1 gap-1.5">
              <Skeleton className="h-4 w-44" />
              <Skeleton className="h-3 w-64 max-w-full" />
            </div>
            {shape === "person" ? (
              <Skeleton className="hidden h-5 w-20 md:block" />
            ) : (
              <>
                <Skeleton className="h-4 w-20" />
                <Skeleton className="h-8 w-20" />
              </>
            )}
          </li>
        ),
      )}
    </ul>
  );
}

/** Something the page fetched did not load: what, and a retry. */
export function LoadError({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-lg bg-negative-soft p-4 text-sm text-negative">
      <p className="flex items-center gap-2">
        <AlertCircle className="size-4 shrink-0" aria-hidden />
        {children}
      </p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

export function ListError({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <LoadError onRetry={onRetry}>We couldn't load the {what}. Check your connection and try again.</LoadError>
  );
}

export interface EmptyState {
  icon: LucideIcon;
  title: string;
  text: string;
}

export function ListEmpty({ icon: Icon, title, text }: EmptyState) {
  return (
    <div className="flex flex-col items-center gap-2 py-10 text-center">
      <Icon className="size-8 text-ink-subtle" aria-hidden />
      <p className="text-sm font-medium text-ink">{title}</p>
      <p className="max-w-sm text-sm text-ink-muted">{text}</p>
    </div>
  );
}

/**
 * What an empty page with more to read says: a search over a long list reads it a stretch at a time (decision 067),
 * so nothing yet is not nothing at all.
 */
export const noMatchSoFar = (what: string) => ({
  title: "No matches so far",
  text: `None of the most recent ${what} match. Load more to search further back.`,
});

export interface ListQuery extends PagedQuery {
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * A fetched admin list in its state: the skeleton while the first page loads, the error with a retry, the empty
 * state, or the rows with "Load more" under them. The rows are `row` of each item in a list, or `children`.
 */
export function ListStates<T>({
  query,
  items,
  what,
  moreWhat = what,
  loadingLabel,
  shape,
  empty,
  row,
  listClassName,
  listLabel,
  children,
}: {
  query: ListQuery;
  items: readonly T[];
  /** What the list holds, in "We couldn't load the {what}". */
  what: string;
  /** The same for "We couldn't load more {moreWhat}", where it reads differently. */
  moreWhat?: string;
  loadingLabel: string;
  shape?: SkeletonShape;
  empty: EmptyState;
  /** One row (with its key) per item. */
  row?: (item: T) => ReactNode;
  listClassName?: string;
  listLabel?: string;
  children?: ReactNode;
}) {
  if (query.isPending) return <ListSkeleton label={loadingLabel} shape={shape} />;
  if (query.isError) return <ListError what={what} onRetry={() => query.refetch()} />;
  if (items.length === 0 && query.hasNextPage) {
    return (
      <>
        <ListEmpty icon={empty.icon} {...noMatchSoFar(what)} />
        <LoadMore query={query} what={moreWhat} />
      </>
    );
  }
  if (items.length === 0) return <ListEmpty {...empty} />;
  return (
    <>
      {row ? (
        <ul className={cn("divide-y divide-line", listClassName)} aria-label={listLabel}>
          {items.map(row)}
        </ul>
      ) : (
        children
      )}
      <LoadMore query={query} what={moreWhat} />
    </>
  );
}

/**
 * The empty state of a list with a search and a status filter: nothing at all (`none`, `text`), nothing for the
 * search (`noMatch`), or nothing with the chosen status ("No pending requests").
 */
export function filteredEmpty(
  filter: { isFiltered: boolean; search: { q: string } },
  empty: { icon: LucideIcon; none: string; noMatch: string; statusLabel: string; noun: string; text: string },
): EmptyState {
  const { isFiltered, search } = filter;
  return {
    icon: empty.icon,
    title: !isFiltered
      ? empty.none
      : search.q
        ? empty.noMatch
        : `No ${empty.statusLabel.toLowerCase()} ${empty.noun}`,
    text: isFiltered ? "Choose another filter to see the rest." : empty.text,
  };
}

/** An admin list's card header: title and description, an action on the right, then the filters (children). */
export function ListHeader({
  title,
  description,
  action,
  children,
}: {
  title: string;
  description: ReactNode;
  action?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <CardHeader className="gap-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        {action}
      </div>
      {children}
    </CardHeader>
  );
}
