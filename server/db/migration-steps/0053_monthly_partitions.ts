import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Monthly partitions (decision 063): on PostgreSQL, transactions, notifications, audit_log, events and user_events
// become partitioned by created_at, online; a table holding rows becomes the partition of everything before a
// cutoff (the first of the month after next, UTC), where rows written until then land too. PGlite keeps plain tables.
const TABLES = ["audit_log", "events", "notifications", "transactions", "user_events"];
/** The five rows written before, each read back through its parent table. */
const READ = `select
  (select description from transactions where id = $1) as transaction,
  (select title from notifications where id = $2) as notification,
  (select action from audit_log where id = $3) as audit,
  (select kind from events where id = $4) as event,
  (select topics[1] from user_events where user_id = $5 and id = 1) as user_event`;
const ROWS = {
  transaction: "step 0053",
  notification: "Step 0053",
  audit: "step.0053",
  event: "step.0053",
  user_event: "wallet",
};
const KEYS = ["transaction", "notification", "audit", "event", "user"];

const step: MigrationStep = {
  async before(db) {
    const [ids] = await db.query<Record<string, string>>(
      `with u as (insert into users (email, first_name, last_name, pillar_tag, password_hash)
           values ('step0053@example.test', 'Petra', 'Partition', 'step0053', 'x') returning id),
         t as (insert into transactions (user_id, type, amount, net_amount, description, status, source_type)
           select id, 'deposit', 700, 700, 'step 0053', 'completed', 'deposit' from u returning id),
         n as (insert into notifications (user_id, kind, title, body)
           select id, 'money_in', 'Step 0053', '' from u returning id),
         a as (insert into audit_log (action, target_type, subject_user_id)
           select 'step.0053', 'user', id from u returning id),
         e as (insert into events (kind, user_id, payload) select 'step.0053', id, '{}' from u returning id),
         ue as (insert into user_events (user_id, id, topics) select id, 1, '{wallet}' from u)
       select (select id::text from t) as transaction, (select id::text from n) as notification,
         (select id::text from a) as audit, (select id::text from e) as event, (select id::text from u) as user`,
    );
    for (const key of KEYS) db.shared.set(`0053.${key}`, ids![key]!);
  },
  async after(db) {
    const ids = KEYS.map((k) => db.shared.get(`0053.${k}`)!);
    expect((await db.query(READ, ids))[0]).toEqual(ROWS);
    const partitioned = await db.query<{ name: string }>(
      `select c.relname as name from pg_partitioned_table p join pg_class c on c.oid = p.partrelid
       where c.relname = any($1) order by 1`,
      [TABLES],
    );
    if (!db.pg) {
      // PGlite: every function of the migration returns at once; only the bookkeeping table is made.
      expect(partitioned).toEqual([]);
      expect(await db.query("select table_name from partitioned_tables")).toEqual([]);
      return;
    }
    expect(partitioned.map((r) => r.name)).toEqual(TABLES);
    const cutoff = "to_char(date_trunc('month', now() at time zone 'UTC') + interval '2 months', 'YYYYMM')";
    const marks = await db.query(
      `select table_name, local_key, to_char(cutoff at time zone 'UTC', 'YYYYMM') = ${cutoff} as month_after_next,
         converted_at is not null as converted from partitioned_tables order by 1`,
    );
    expect(marks).toEqual(
      TABLES.map((t) => ({
        table_name: t,
        local_key: t === "user_events" ? "user_id, id" : "id",
        month_after_next: true,
        converted: true,
      })),
    );
    // The row from before and a row written now are both in the old table, the partition up to the cutoff.
    const [month] = await db.query<{ suffix: string }>(`select ${cutoff} as suffix`);
    const [now] = await db.query<{ id: string }>(
      `insert into transactions (type, amount, net_amount, description, status, source_type)
       values ('deposit', 1, 1, 'step 0053 now', 'completed', 'deposit') returning id`,
    );
    const where = await db.query(
      "select tableoid::regclass::text as partition from transactions where id = any($1) group by 1",
      [[ids[0], now!.id]],
    );
    expect(where).toEqual([{ partition: `transactions_before_${month!.suffix}` }]);
    // Nothing can reference a key that is unique per partition only: chain_deposits' key to transactions is gone.
    expect(
      await db.query("select conname from pg_constraint where confrelid = 'transactions'::regclass"),
    ).toEqual([]);
    // The event log's identity became a sequence that goes on from the last id.
    const [next] = await db.query<{ later: boolean }>(
      "insert into events (kind, payload) values ('step.0053.after', '{}') returning id > $1 as later",
      [ids[3]],
    );
    expect(next).toEqual({ later: true });
  },
};
export default step;
