import { and, desc, eq, type SQL } from "drizzle-orm";
import {
  type AlertsQuery,
  MONITORING_MESSAGES,
  type MonitoringAlert,
  RULE_NAMES,
} from "@/contract/monitoring";
import type { Page } from "@/contract/pages";
import type { DbOrTx } from "@/server/db/client";
import { monitoringAlerts, users } from "@/server/db/schema";
import { listSearch } from "@/server/lib/customer-search";
import { AppError } from "@/server/lib/errors";
import { beforeTimeKey, continuedAfter, exactTime, toPage } from "@/server/lib/keyset-page";

const columns = {
  alert: monitoringAlerts,
  key: exactTime(monitoringAlerts.createdAt),
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
};
type Row = {
  alert: typeof monitoringAlerts.$inferSelect;
  key: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
};

function toAlert(row: Row): MonitoringAlert {
  const a = row.alert;
  return {
    id: a.id,
    caseId: a.caseId,
    rule: RULE_NAMES.find((r) => r === a.rule) ?? RULE_NAMES[0],
    score: a.score,
    blocking: a.blocking,
    eventKind: a.eventKind,
    eventId: a.eventId,
    transferId: a.transferId,
    evidence: a.evidence,
    customer:
      a.userId && row.email
        ? { id: a.userId, email: row.email, firstName: row.firstName ?? "", lastName: row.lastName ?? "" }
        : null,
    createdAt: a.createdAt.toISOString(),
  };
}

function select(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(columns)
    .from(monitoringAlerts)
    .leftJoin(users, eq(users.id, monitoringAlerts.userId))
    .where(where);
}

/** The alerts queue, newest first; narrowed to a rule or a case; q searches the customer's e-mail and name. */
export async function findAlerts(db: DbOrTx, query: AlertsQuery): Promise<Page<MonitoringAlert>> {
  const filters = and(
    query.rule ? eq(monitoringAlerts.rule, query.rule) : undefined,
    query.caseId ? eq(monitoringAlerts.caseId, query.caseId) : undefined,
    beforeTimeKey(monitoringAlerts.createdAt, monitoringAlerts.id, query.cursor),
  );
  const search = await listSearch(db, query.q, {
    table: monitoringAlerts,
    order: { kind: "time", createdAt: monitoringAlerts.createdAt, id: monitoringAlerts.id },
    userId: monitoringAlerts.userId,
    filters,
  });
  const rows = (await select(db, and(filters, search.where))
    .orderBy(desc(monitoringAlerts.createdAt), desc(monitoringAlerts.id))
    .limit(query.limit + 1)) as Row[];
  return continuedAfter(
    toPage(rows, query.limit, (r) => [r.key, r.alert.id], toAlert),
    search,
  );
}

export async function getAlert(db: DbOrTx, alertId: string): Promise<MonitoringAlert> {
  const [row] = (await select(db, eq(monitoringAlerts.id, alertId))) as Row[];
  if (!row) throw new AppError("NOT_FOUND", MONITORING_MESSAGES.alertNotFound);
  return toAlert(row);
}
