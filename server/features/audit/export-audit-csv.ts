import type { DbOrTx } from "@/server/db/client";
import { type AuditFilters, selectAuditRows, toAuditEntry } from "@/server/features/audit/find-audit-entries";
import { csvLine, startCsv } from "@/server/lib/csv";
import { encodeCursor } from "@/server/lib/keyset-page";

const CSV_HEADER = [
  "id",
  "time",
  "actor_email",
  "actor_id",
  "actor_roles",
  "authorised_as",
  "action",
  "target_type",
  "target_id",
  "customer_email",
  "customer_id",
  "reason",
  "before",
  "after",
];

/** Rows per query: the whole log is read in bounded batches, never held in memory. */
export const AUDIT_CSV_BATCH_ROWS = 1000;

const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

/**
 * The search's rows as CSV, newest first: a pull-based generator (the next batch is read only when the
 * response has taken the previous one), each batch one short keyset query on the same filters as the page.
 */
export async function* exportAuditCsv(db: DbOrTx, filters: AuditFilters): AsyncGenerator<string> {
  yield csvLine(CSV_HEADER);
  let cursor: string | undefined;
  for (;;) {
    const rows = await selectAuditRows(db, filters, cursor, AUDIT_CSV_BATCH_ROWS);
    if (rows.length === 0) return;
    let chunk = "";
    for (const row of rows) {
      const e = toAuditEntry(row);
      chunk += csvLine([
        e.id,
        e.createdAt,
        e.actor?.email ?? "",
        e.actor?.id ?? "",
        e.actor?.roles.join(" ") ?? "",
        e.actorRole ?? "",
        e.action,
        e.targetType,
        e.targetId ?? "",
        e.customer?.email ?? "",
        e.customer?.id ?? "",
        e.reason ?? "",
        json(e.before),
        json(e.after),
      ]);
    }
    yield chunk;
    if (rows.length < AUDIT_CSV_BATCH_ROWS) return;
    cursor = encodeCursor([String(rows[rows.length - 1]!.row.id)]);
  }
}

export function startAuditCsv(db: DbOrTx, filters: AuditFilters): Promise<AsyncGenerator<string>> {
  return startCsv(exportAuditCsv(db, filters));
}
