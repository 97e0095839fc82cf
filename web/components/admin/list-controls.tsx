import { Search } from "lucide-react";
import type { ListFilter } from "@/web/components/admin/admin-list";
import { NativeSelect } from "@/web/components/native-select";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { cn } from "@/web/lib/cn";

/** The search box every admin table shares; the server searches, so it covers every page, not just the loaded ones. */
export function ListSearch({
  id,
  label,
  placeholder,
  value,
  onChange,
  className,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <div className={cn("relative w-full sm:max-w-xs", className)}>
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-subtle"
        aria-hidden
      />
      <Input
        id={id}
        type="search"
        placeholder={placeholder}
        className="pl-9"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** A status filter as a row of toggle buttons (the server filters, so there are no per-status counts). */
export function StatusFilter<F extends string>({
  legend,
  options,
  labelOf,
  value,
  onChange,
}: {
  legend: string;
  options: readonly F[];
  labelOf: (value: F) => string;
  value: F;
  onChange: (value: F) => void;
}) {
  return (
    <fieldset className="flex flex-wrap gap-1">
      <legend className="sr-only">{legend}</legend>
      {options.map((option) => (
        <Button
          key={option}
          size="sm"
          variant={value === option ? "primary" : "ghost"}
          aria-pressed={value === option}
          onClick={() => onChange(option)}
        >
          {labelOf(option)}
        </Button>
      ))}
    </fieldset>
  );
}

export interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

/** "Load more" under a table while the server has more rows; a failed page can be retried in place. */
export function LoadMore({ query, what }: { query: PagedQuery; what: string }) {
  if (!query.hasNextPage) return null;
  return (
    <div className="flex flex-col items-center gap-2 border-t border-line pt-4">
      {query.isFetchNextPageError ? (
        <p className="text-sm text-negative" role="alert">
          We couldn't load more {what}. Check your connection and try again.
        </p>
      ) : null}
      <Button
        variant="secondary"
        size="sm"
        disabled={query.isFetchingNextPage}
        onClick={() => query.fetchNextPage()}
      >
        {query.isFetchingNextPage ? "Loading…" : query.isFetchNextPageError ? "Try again" : "Load more"}
      </Button>
    </div>
  );
}

/** A status filter as a drop-down, for lists with more statuses than fit in a row of buttons. */
export function StatusSelect<F extends string>({
  id,
  label,
  options,
  labelOf,
  value,
  onChange,
}: {
  id: string;
  label: string;
  options: readonly F[];
  labelOf: (value: F) => string;
  value: F;
  onChange: (value: F) => void;
}) {
  return (
    <div className="w-full sm:w-44">
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value as F)}>
        {options.map((option) => (
          <option key={option} value={option}>
            {labelOf(option)}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/** The status buttons and the search box of a list, side by side from `wideFrom` up. */
export function FilterBar<F extends string>({
  filter,
  legend,
  options,
  labelOf,
  search,
  wideFrom = "lg",
}: {
  filter: ListFilter<F>;
  legend: string;
  options: readonly F[];
  labelOf: (value: F) => string;
  search: { id: string; label: string; placeholder: string };
  wideFrom?: "sm" | "lg";
}) {
  return (
    <div
      className={cn(
        "flex flex-col gap-3",
        wideFrom === "sm"
          ? "sm:flex-row sm:items-center sm:justify-between"
          : "lg:flex-row lg:items-center lg:justify-between",
      )}
    >
      <StatusFilter
        legend={legend}
        options={options}
        labelOf={labelOf}
        value={filter.status}
        onChange={filter.setStatus}
      />
      <ListSearch {...search} value={filter.search.text} onChange={filter.search.setText} />
    </div>
  );
}
