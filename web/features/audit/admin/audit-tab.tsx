import { Download, ScrollText, Search, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import type { AuditEntry } from "@/contract/audit";
import { STAFF_ROLE_LABELS } from "@/contract/staff";
import { ListHeader, ListStates } from "@/web/components/admin/list-states";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import {
  type AuditFilters,
  auditCsvHref,
  useAuditEntries,
} from "@/web/features/audit/admin/api/get-audit-entries";
import { describeAuditChange } from "@/web/features/audit/admin/describe-audit-change";
import { ApiError } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { formatDateTime } from "@/web/lib/format";

const NO_FILTERS: AuditFilters = { actor: "", customer: "", action: "", from: "", to: "" };

const TEXT_FIELD = "col-span-2 sm:col-span-1";
const FIELDS: {
  key: keyof AuditFilters;
  label: string;
  placeholder?: string;
  type?: string;
  className?: string;
}[] = [
  { key: "actor", label: "Staff member", placeholder: "E-mail or user id", className: TEXT_FIELD },
  { key: "customer", label: "Customer", placeholder: "E-mail or user id", className: TEXT_FIELD },
  { key: "action", label: "Action", placeholder: "kyc.approve or customer.*", className: TEXT_FIELD },
  { key: "from", label: "From", type: "date" },
  { key: "to", label: "To", type: "date" },
];

function Actor({ entry }: { entry: AuditEntry }) {
  if (!entry.actor) return <span className="text-ink-muted">System</span>;
  return (
    <span className="grid min-w-0 gap-1">
      <span className="truncate">{entry.actor.email ?? `Deleted user ${entry.actor.id.slice(0, 8)}`}</span>
      {entry.actorRole || entry.actor.roles.length ? (
        <span className="flex flex-wrap gap-1">
          <Badge>
            {entry.actorRole
              ? `as ${STAFF_ROLE_LABELS[entry.actorRole]}`
              : entry.actor.roles.map((role) => STAFF_ROLE_LABELS[role]).join(", ")}
          </Badge>
        </span>
      ) : null}
    </span>
  );
}

function Details({ entry }: { entry: AuditEntry }) {
  const lines = describeAuditChange(entry.before, entry.after);
  return (
    <span className="grid min-w-0 gap-1 text-xs text-ink-muted">
      {entry.reason ? (
        <span className="text-sm text-ink">
          <span className="text-ink-muted">Reason: </span>
          {entry.reason}
        </span>
      ) : null}
      {lines.map((line) => (
        <span key={line} className="tabular-nums">
          {line}
        </span>
      ))}
      {!entry.reason && lines.length === 0 ? <span>—</span> : null}
    </span>
  );
}

/** What the row acted on, without its id (the customer column names who it concerns). */
const target = (entry: AuditEntry) => entry.targetType.replaceAll("_", " ");

/** The customer by name, e-mail under it; a deleted account by its short id. */
function Customer({ entry }: { entry: AuditEntry }) {
  const customer = entry.customer;
  if (!customer) return <span className="text-ink-muted">—</span>;
  if (!customer.email)
    return <span className="text-ink-muted">Deleted customer {customer.id.slice(0, 8)}</span>;
  return (
    <span className="grid min-w-0 gap-0.5">
      <span className="truncate">{customer.name}</span>
      <span className="truncate text-xs text-ink-muted">{customer.email}</span>
    </span>
  );
}

/** Owner and compliance: search the audit log by staff member, customer, action and New York days; export CSV. */
export default function AuditTab() {
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const [applied, setApplied] = useState<AuditFilters>(NO_FILTERS);
  const { query, items } = useAuditEntries(applied);
  const badFilter =
    query.error instanceof ApiError && query.error.status === 400 ? query.error.message : null;
  const isFiltered = Object.values(applied).some((v) => v.trim() !== "");

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setApplied({ ...draft });
  };
  const onClear = () => {
    setDraft(NO_FILTERS);
    setApplied(NO_FILTERS);
  };

  return (
    <Card>
      <ListHeader
        title="Audit Log"
        description="Every staff action and sensitive read, newest first (days in New York time)"
        action={
          <Button asChild variant="secondary" size="sm" className="self-start">
            <a href={auditCsvHref(applied)} download>
              <Download aria-hidden />
              Export CSV
            </a>
          </Button>
        }
      >
        <form
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_10rem_10rem_auto]"
          onSubmit={onSubmit}
        >
          {FIELDS.map((field) => (
            <div key={field.key} className={cn("grid min-w-0 gap-1.5", field.className)}>
              <Label htmlFor={`audit-${field.key}`}>{field.label}</Label>
              <Input
                id={`audit-${field.key}`}
                type={field.type ?? "search"}
                placeholder={field.placeholder}
                value={draft[field.key]}
                onChange={(e) => setDraft((d) => ({ ...d, [field.key]: e.target.value }))}
                aria-invalid={badFilter ? true : undefined}
                aria-describedby={badFilter ? "audit-filter-error" : undefined}
              />
            </div>
          ))}
          <div className="col-span-2 flex items-end gap-2 sm:col-span-1">
            <Button type="submit" className="flex-1 lg:flex-none">
              <Search aria-hidden />
              Search
            </Button>
            {isFiltered ? (
              <Button type="button" variant="ghost" onClick={onClear} aria-label="Clear filters">
                <X aria-hidden />
                <span className="lg:sr-only">Clear</span>
              </Button>
            ) : null}
          </div>
        </form>
        {badFilter ? (
          <p id="audit-filter-error" className="text-sm text-negative" role="alert">
            {badFilter}
          </p>
        ) : null}
      </ListHeader>
      <CardContent className="grid gap-4">
        {badFilter ? null : (
          <ListStates
            query={query}
            items={items}
            what="audit log"
            moreWhat="audit entries"
            loadingLabel="Loading the audit log"
            empty={{
              icon: ScrollText,
              title: isFiltered ? "Nothing matches these filters" : "The audit log is empty",
              text: isFiltered
                ? "Widen the dates or clear a filter."
                : "Staff actions appear here as they happen.",
            }}
          >
            <div className="hidden overflow-x-auto md:block">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Audit log entries, newest first</caption>
                <thead className="border-b border-line text-xs text-ink-muted">
                  <tr>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Time
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Staff member
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Action
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Customer
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      Details
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-line align-top">
                  {items.map((entry) => (
                    <tr key={entry.id}>
                      <td className="py-3 pr-4 whitespace-nowrap text-ink-muted tabular-nums">
                        {formatDateTime(entry.createdAt)}
                      </td>
                      <td className="max-w-56 py-3 pr-4 text-ink">
                        <Actor entry={entry} />
                      </td>
                      <td className="py-3 pr-4">
                        <span className="grid gap-0.5">
                          <code className="font-mono text-xs text-ink">{entry.action}</code>
                          <span className="text-xs text-ink-subtle">{target(entry)}</span>
                        </span>
                      </td>
                      <td className="max-w-48 py-3 pr-4 text-ink">
                        <Customer entry={entry} />
                      </td>
                      <td className="max-w-80 py-3">
                        <Details entry={entry} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ul className="-my-3 divide-y divide-line md:hidden" aria-label="Audit log entries, newest first">
              {items.map((entry) => (
                <li key={entry.id} className="grid gap-2 py-3 text-sm">
                  <div className="flex items-start justify-between gap-3">
                    <code className="font-mono text-xs break-all text-ink">{entry.action}</code>
                    <span className="shrink-0 text-xs text-ink-muted tabular-nums">
                      {formatDateTime(entry.createdAt)}
                    </span>
                  </div>
                  <Actor entry={entry} />
                  <div className="flex gap-1 text-xs text-ink-muted">
                    <span>Customer:</span>
                    <Customer entry={entry} />
                  </div>
                  <Details entry={entry} />
                </li>
              ))}
            </ul>
          </ListStates>
        )}
      </CardContent>
    </Card>
  );
}
