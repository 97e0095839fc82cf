import { sql } from "drizzle-orm";
import { RULE_NAMES, type RuleName } from "@/contract/monitoring";
import { type DbOrTx, named, queryRows } from "@/server/db/client";
import {
  ADDRESS_SENDERS_LISTED,
  type MoneyEvent,
  type MonitoringConfig,
  type MonitoringInput,
  ruleSettings,
} from "@/server/features/monitoring/rules";

const DAY = 86_400_000;

type EventRow = {
  id: string;
  kind: MoneyEvent["kind"];
  at: Date;
  amount: string | number;
  address: string | null;
};

/**
 * What the rules see for one event of a customer, read from the database: the customer's money in (completed
 * credits and deposits) and transfer requests (any status: an attempt counts) within the lookback, the last
 * activity before it, the account's age, its devices, its recent alerts, and other customers' transfers to the
 * same address. The event itself is left out of the history even when its row is already written.
 */
export async function loadMonitoringInput(
  db: DbOrTx,
  userId: string,
  event: MoneyEvent,
  config: MonitoringConfig,
): Promise<MonitoringInput> {
  const from = new Date(event.at - config.lookbackDays * DAY).toISOString();
  // Named prepared statements, all three: every transfer and every credit runs them (server/db/client.ts).
  const rowsRead = queryRows<EventRow>(
    db,
    named(
      "monitoring_history",
      sql`select id, case when source_type = 'usdc_deposit' then 'deposit' else 'credit' end as kind,
          created_at as at, amount, null as address
        from transactions
        where user_id = ${userId}::uuid and status = 'completed' and type in ('credit', 'incoming_payment')
          and created_at >= ${from}::timestamptz and id <> ${event.id}::uuid
        union all
        select id, 'transfer', created_at, amount, lower(crypto_address)
        from transfer_requests
        where user_id = ${userId}::uuid and created_at >= ${from}::timestamptz and id <> ${event.id}::uuid`,
    ),
  );
  const cooldown = Math.max(...RULE_NAMES.map((r) => ruleSettings(config, r).cooldownDays));
  // One round trip for the rest: the last activity before the lookback, the account's age, devices, alerts.
  const factsRead = queryRows<{
    at: Date | string | null;
    opened: Date | string;
    devices: { at: string }[];
    alerts: { rule: RuleName; at: string }[];
  }>(
    db,
    named(
      "monitoring_facts",
      sql`select greatest(
          (select max(created_at) from transactions where user_id = ${userId}::uuid and status = 'completed'
             and type in ('credit', 'incoming_payment') and created_at < ${from}::timestamptz),
          (select max(created_at) from transfer_requests where user_id = ${userId}::uuid
             and created_at < ${from}::timestamptz)
        ) as at,
        (select created_at from users where id = ${userId}::uuid) as opened,
        coalesce((select json_agg(json_build_object('at', created_at)) from known_devices
          where user_id = ${userId}::uuid), '[]'::json) as devices,
        coalesce((select json_agg(json_build_object('rule', rule, 'at', created_at)) from monitoring_alerts
          where user_id = ${userId}::uuid
            and created_at >= ${new Date(event.at - cooldown * DAY).toISOString()}::timestamptz), '[]'::json) as alerts`,
    ),
  );
  // One row per other customer (their latest transfer there in the rule's window, to the millisecond the rule
  // compares: after its start, not after the event), not one per transfer: the rule counts
  // customers, and an address many customers pay (an exchange's) would otherwise hand every transfer to it all
  // of its recent transfers (the failover soak's one address: 14,000 rows per transfer, 12× slower by seed 9).
  // And only the most recent ADDRESS_SENDERS_LISTED of them, with the count of all: the bench's 1,000 customers
  // paying one address returned ~750 rows per transfer, all written into each alert's evidence (0.8 ms of
  // PostgreSQL per alert, growing with the customers). The read still visits every transfer to the address in
  // the window (bench/HISTORY.md, session 19).
  const sendersRead = event.address
    ? queryRows<{ customerId: string; at: Date; total: string }>(
        db,
        named(
          "monitoring_address_senders",
          sql`select user_id as "customerId", max(created_at) as at, count(*) over () as total
            from transfer_requests
            where lower(crypto_address) = ${event.address.toLowerCase()} and user_id is not null
              and user_id <> ${userId}::uuid
              and created_at >= ${new Date(event.at - config.manyToOneAddress.windowDays * DAY + 1).toISOString()}::timestamptz
              and created_at < ${new Date(event.at + 1).toISOString()}::timestamptz
            group by user_id
            order by at desc, user_id
            limit ${ADDRESS_SENDERS_LISTED}`,
        ),
      )
    : Promise.resolve([]);
  // Three reads at once: a transfer waits for them before it is made.
  const [rows, [facts], senders] = await Promise.all([rowsRead, factsRead, sendersRead]);
  return {
    event: { ...event, address: event.address?.toLowerCase() ?? null },
    history: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      at: new Date(r.at).getTime(),
      amountCents: Number(r.amount),
      address: r.address,
    })),
    activityBeforeLookbackAt: facts?.at ? new Date(facts.at).getTime() : null,
    accountOpenedAt: facts?.opened ? new Date(facts.opened).getTime() : event.at,
    deviceFirstSeen: (facts?.devices ?? []).map((d) => Date.parse(d.at)),
    addressSenders: senders.map((s) => ({ customerId: s.customerId, at: new Date(s.at).getTime() })),
    addressSenderCount: Number(senders[0]?.total ?? 0),
    recentAlerts: (facts?.alerts ?? []).map((a) => ({ rule: a.rule, at: Date.parse(a.at) })),
  };
}
