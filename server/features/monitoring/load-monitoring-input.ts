import { sql } from "drizzle-orm";
import { z } from "zod";
import { MONEY_EVENT_KINDS, RULE_NAMES, type RuleName } from "@/contract/monitoring";
import { type DbOrTx, named, queryRows } from "@/server/db/client";
import {
  ADDRESS_SENDERS_LISTED,
  addressSendersCounted,
  dormancySignificanceCents,
  type MoneyEvent,
  type MonitoringConfig,
  type MonitoringInput,
  ruleSettings,
} from "@/server/features/monitoring/rules";

const DAY = 86_400_000;

/** One customer's event to judge. */
export interface MonitoringSubject {
  userId: string;
  event: MoneyEvent;
}

// Timestamps come back as their text on both drivers (Drizzle leaves them unparsed); bigints (amounts, window counts)
// as strings on node-postgres and numbers on PGlite, so they are coerced: the rules read numbers.
const historyRow = z.object({
  n: z.number(),
  id: z.string(),
  kind: z.enum(MONEY_EVENT_KINDS),
  at: z.string(),
  amount: z.coerce.number(),
  address: z.string().nullable(),
  counterparty: z.string().nullable(),
});

const factsRow = z.object({
  n: z.number(),
  at: z.string().nullable(),
  opened: z.string().nullable(),
  devices: z.array(z.string()),
  // Any stored rule name: an alert of a rule since retired still loads (and matches no rule), as it always did.
  alerts: z.array(z.object({ rule: z.custom<RuleName>((r) => typeof r === "string"), at: z.string() })),
});

const senderRow = z.object({
  n: z.number(),
  customerId: z.string(),
  at: z.string(),
  total: z.coerce.number(),
  candidates: z.coerce.number(),
});

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What the rules see for each event of a batch, read from the database in three statements, one after the other on
 * the caller's transaction, whatever the batch's size (the monitoring consumer judges a batch of transfers and
 * payments by $tag at once; money in judges one): each customer's money in (completed credits and deposits), payments
 * by $tag both ways (tag_out, tag_in, with the other customer: decision 054) and transfer requests (any status: an
 * attempt counts) within the lookback and
 * up to the event (a transfer judged after its commit must not see the ones made since), the last activity before
 * it (an event of at least the dormancy rule's significant amount), the account's age, its devices, its recent alerts, and the other customers who paid the same address (address_senders). The
 * event itself is left out of the history even when its row is already written. Answers in the subjects' order.
 */
export async function loadMonitoringInputs(
  db: DbOrTx,
  subjects: MonitoringSubject[],
  config: MonitoringConfig,
): Promise<MonitoringInput[]> {
  if (subjects.length === 0) return [];
  const cooldown = Math.max(...RULE_NAMES.map((r) => ruleSettings(config, r).cooldownDays));
  const rows = JSON.stringify(
    subjects.map(({ userId, event }, n) => ({
      n,
      user_id: userId,
      event_id: event.id,
      at: iso(event.at),
      from_at: iso(event.at - config.lookbackDays * DAY),
      alerts_from: iso(event.at - cooldown * DAY),
      address: event.address?.toLowerCase() ?? null,
      // The many-to-one rule's window, to the millisecond the rule compares: after its start, not after the event.
      senders_from: iso(event.at - config.manyToOneAddress.windowDays * DAY + 1),
      senders_to: iso(event.at + 1),
      // The dormancy rule's activity: an event this large or larger (a keep-alive of $1 is not one).
      significant: dormancySignificanceCents(event, config),
    })),
  );
  const subjectsTable = sql`jsonb_to_recordset(${rows}::jsonb) as s(n int, user_id uuid, event_id uuid,
    at timestamptz, from_at timestamptz, alerts_from timestamptz, address text, senders_from timestamptz,
    senders_to timestamptz, significant bigint)`;
  // Named prepared statements, all three: every transfer and every credit runs them (server/db/client.ts).
  const history = await queryRows(
    db,
    named(
      "monitoring_history",
      sql`select s.n, h.id, h.kind, h.at, h.amount, h.address, h.counterparty from ${subjectsTable}
        cross join lateral (
          select t.id,
            case when t.source_type = 'tag_payment' then case when t.type = 'debit' then 'tag_out' else 'tag_in' end
              when t.source_type = 'usdc_deposit' then 'deposit' else 'credit' end as kind,
            t.created_at as at, t.amount, null as address,
            case when t.type = 'debit' then p.payee_id else p.payer_id end as counterparty
          from transactions t
          left join tag_payments p on t.source_type = 'tag_payment' and p.id = t.source_id
          -- A move from the customer's own savings (decision 068) is no money coming in.
          where t.user_id = s.user_id and t.status = 'completed' and t.source_type <> 'savings'
            and (t.type in ('credit', 'incoming_payment') or (t.type = 'debit' and t.source_type = 'tag_payment'))
            and t.created_at >= s.from_at and t.created_at <= s.at and t.id <> s.event_id
          union all
          select id, 'transfer', created_at, amount, lower(crypto_address), null
          from transfer_requests
          where user_id = s.user_id and created_at >= s.from_at and created_at <= s.at and id <> s.event_id
        ) h`,
    ),
    historyRow,
  );
  // An alert's time is its event's (its evidence says when): a transfer's alerts are filed by the consumer after
  // the commit, and the cooldown compares events, not filings.
  const facts = await queryRows(
    db,
    named(
      "monitoring_facts",
      sql`select s.n,
          greatest(
            (select max(created_at) from transactions where user_id = s.user_id and status = 'completed'
               and source_type <> 'savings' and (type in ('credit', 'incoming_payment') or (type = 'debit' and source_type = 'tag_payment'))
               and created_at < s.from_at and amount >= s.significant),
            (select max(created_at) from transfer_requests where user_id = s.user_id and created_at < s.from_at
               and amount >= s.significant)
          ) as at,
          (select created_at from users where id = s.user_id) as opened,
          coalesce((select json_agg(created_at) from known_devices where user_id = s.user_id), '[]'::json) as devices,
          coalesce((select json_agg(json_build_object('rule', rule,
              'at', coalesce((evidence -> 'event' ->> 'at')::timestamptz, created_at)))
            from monitoring_alerts where user_id = s.user_id and created_at >= s.alerts_from), '[]'::json) as alerts
        from ${subjectsTable}`,
    ),
    factsRow,
  );
  // One row per other customer (their latest transfer there in the rule's window), from the table of senders per
  // address (decision 064): the most recent ADDRESS_SENDERS_LISTED of them, with the count of all up to
  // addressSendersCounted. Before it, the read visited every transfer to the address in the window (the failover
  // soak's one address: 14,000 rows per transfer); now at most that many index entries and rows, however popular
  // the address. A customer who paid it again after the event (a transfer judged after its commit must not see
  // the ones made since) has a last_at past the event: their latest transfer there up to the event is looked up
  // among their own transfers, and they are left out if there is none in the window.
  const counted = addressSendersCounted(config);
  const senders = subjects.some((s) => s.event.address)
    ? await queryRows(
        db,
        named(
          "monitoring_address_senders",
          sql`select n, "customerId", at, total, candidates from (
            select s.n, x."customerId", x.at, count(x.at) over w as total, count(*) over w as candidates,
              row_number() over (w order by x.at desc nulls last, x."customerId") as rank
            from ${subjectsTable}
            cross join lateral (
              select a.user_id as "customerId",
                case when a.last_at < s.senders_to then a.last_at else (
                  select max(t.created_at) from transfer_requests t
                  where t.user_id = a.user_id and lower(t.crypto_address) = s.address
                    and t.created_at >= s.senders_from and t.created_at < s.senders_to) end as at
              from address_senders a
              where a.address = s.address and a.user_id <> s.user_id
                and a.last_at >= s.senders_from and a.first_at < s.senders_to
              order by a.last_at desc
              limit ${counted}
            ) x
            where s.address is not null
            window w as (partition by s.n)
          ) ranked
          where rank <= ${ADDRESS_SENDERS_LISTED} and at is not null
          order by n, rank`,
        ),
        senderRow,
      )
    : [];
  return subjects.map(({ event }, n) => {
    const fact = facts.find((f) => f.n === n);
    const own = senders.filter((s) => s.n === n);
    const total = Number(own[0]?.total ?? 0);
    return {
      event: { ...event, address: event.address?.toLowerCase() ?? null },
      history: history
        .filter((r) => r.n === n)
        .map((r) => ({
          id: r.id,
          kind: r.kind,
          at: new Date(r.at).getTime(),
          amountCents: Number(r.amount),
          address: r.address,
          counterparty: r.counterparty,
        })),
      activityBeforeLookbackAt: fact?.at ? new Date(fact.at).getTime() : null,
      accountOpenedAt: fact?.opened ? new Date(fact.opened).getTime() : event.at,
      deviceFirstSeen: (fact?.devices ?? []).map((at) => Date.parse(at)),
      addressSenders: own.map((s) => ({ customerId: s.customerId, at: new Date(s.at).getTime() })),
      addressSenderCount: total,
      ...(Number(own[0]?.candidates ?? 0) >= counted ? { addressSendersCapped: true } : {}),
      recentAlerts: (fact?.alerts ?? []).map((a) => ({ rule: a.rule, at: Date.parse(a.at) })),
    };
  });
}

/** What the rules see for one event of a customer (money in, judged in its crediting transaction). */
export async function loadMonitoringInput(
  db: DbOrTx,
  userId: string,
  event: MoneyEvent,
  config: MonitoringConfig,
): Promise<MonitoringInput> {
  const [input] = await loadMonitoringInputs(db, [{ userId, event }], config);
  return input!;
}
