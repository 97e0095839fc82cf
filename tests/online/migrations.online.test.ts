import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedScale } from "@/scripts/bench/scale/seed";
import { runMigrations, type SqlClient } from "@/server/db/migrate";
import { LAST_UNCHECKED_MIGRATION } from "@/server/db/migration-lint";
import { PROJECT_ROOT } from "@/server/lib/project-root";
import { createDatabaseSql, ONLINE_CUSTOMERS } from "@/tests/online/online-customers";
import { withDatabase } from "@/tests/support/global-setup";

const serverUrl = process.env.DATABASE_URL;
const journal = JSON.parse(
  fs.readFileSync(path.join(PROJECT_ROOT, "server/db/migrations/meta/_journal.json"), "utf8"),
) as { entries: { idx: number; tag: string }[] };
const before = journal.entries.filter((e) => e.idx <= LAST_UNCHECKED_MIGRATION).at(-1)!.tag;
/** The longest a probe may wait on a lock while the migrations run (decision 064). */
const MAX_WAIT_MS = 1_000;

/**
 * One probe per big table, each a short transaction with lock_timeout 1 s: a read by customer and a write. A probe
 * refused for a lock (55P03) or slower than MAX_WAIT_MS is a failure of the migration running beside it.
 */
const PROBES: { table: string; read: string; write: string }[] = [
  {
    table: "users",
    read: "select id, email from users where id = $1",
    write: "update users set updated_at = now() where id = $1",
  },
  {
    table: "transactions",
    read: "select id from transactions where user_id = $1 order by created_at desc limit 20",
    write: `insert into transactions (user_id, type, amount, fee, net_amount, description, status, source_type)
      values ($1, 'credit', 100, 0, 100, 'probe', 'completed', 'admin_credit')`,
  },
  {
    table: "transfer_requests",
    read: "select id from transfer_requests where user_id = $1 order by created_at desc limit 20",
    write: `insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing,
        purpose, category, payment_method, crypto_address, limit_day)
      values ($1, 100, 0, 100, 'Probe', 'CRYPTO', 'probe', 'other', 'crypto',
        '0x00000000000000000000000000000000000e0c01', to_char(now(), 'YYYY-MM-DD'))`,
  },
  {
    table: "notifications",
    read: "select id from notifications where user_id = $1 order by id desc limit 20",
    write: "insert into notifications (user_id, kind, title, body) values ($1, 'security', 'Probe', 'Probe')",
  },
  {
    table: "chat_messages",
    read: "select id from chat_messages where user_id = $1 order by id desc limit 20",
    write: "insert into chat_messages (user_id, is_from_user, message) values ($1, true, 'probe')",
  },
  {
    table: "audit_log",
    read: "select id from audit_log where subject_user_id = $1 order by id desc limit 20",
    write:
      "insert into audit_log (actor_id, action, target_type, subject_user_id) values ($1, 'probe', 'user', $1)",
  },
  {
    table: "sessions",
    read: "select id_hash from sessions where user_id = $1",
    write: "update sessions set last_seen_at = now() where user_id = $1",
  },
];

interface ProbeRun {
  table: string;
  probes: number;
  longestMs: number;
  refused: string[];
}

/** Runs every probe in a loop on a connection of its own until `stop` is called. */
function startProbers(url: string, userIds: string[]) {
  let running = true;
  const runs: ProbeRun[] = PROBES.map((p) => ({ table: p.table, probes: 0, longestMs: 0, refused: [] }));
  const loops = PROBES.map(async (probe, i) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const run = runs[i]!;
    try {
      while (running) {
        const user = userIds[(run.probes * 7919) % userIds.length]!;
        for (const text of [probe.read, probe.write]) {
          const started = performance.now();
          try {
            await client.query("begin");
            await client.query("set local lock_timeout = '1s'");
            await client.query(text, [user]);
            await client.query("commit");
          } catch (err) {
            await client.query("rollback");
            run.refused.push(`${(err as Error).message}: ${text.split("\n")[0]}`);
          }
          run.longestMs = Math.max(run.longestMs, performance.now() - started);
          run.probes++;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await client.end();
    }
  });
  return {
    runs,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Every 100 ms, the longest any backend has waited for a lock right now (pg_locks not granted). */
function startLockSampler(url: string) {
  let running = true;
  const waits: { ms: number; query: string }[] = [];
  const loop = (async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      while (running) {
        const { rows } = await client.query<{ ms: number; query: string }>(
          `select extract(epoch from now() - a.state_change) * 1000 as ms, left(a.query, 200) as query
           from pg_locks l join pg_stat_activity a on a.pid = l.pid
           where not l.granted and a.datname = current_database() and a.wait_event_type = 'Lock'`,
        );
        waits.push(...rows.map((r) => ({ ms: Number(r.ms), query: r.query })));
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await client.end();
    }
  })();
  return {
    waits,
    async stop() {
      running = false;
      await loop;
    },
  };
}

describe.skipIf(!serverUrl)(
  `this issue's migrations on a ${ONLINE_CUSTOMERS.toLocaleString("en-US")}-customer database, under reads and writes`,
  () => {
    const name = `online_mig_${randomBytes(5).toString("hex")}`;
    const url = serverUrl ? withDatabase(serverUrl, name) : "";
    const admin = new pg.Client({ connectionString: serverUrl });
    const migrator = new pg.Client({ connectionString: url });

    beforeAll(async () => {
      await admin.connect();
      await admin.query(createDatabaseSql(name));
      await migrator.connect();
      await runMigrations(migrator as unknown as SqlClient, {
        lock: true,
        concurrently: true,
        until: before,
      });
      const started = performance.now();
      await seedScale(url, { customers: ONLINE_CUSTOMERS });
      await migrator.query("analyze");
      console.info(
        `seeded ${ONLINE_CUSTOMERS} customers at ${before} in ${Math.round(performance.now() - started)} ms`,
      );
    });
    afterAll(async () => {
      await migrator.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });

    it("applies them while no probe waits a second for a lock, and leaves no index invalid", async () => {
      const { rows } = await migrator.query<{ id: string }>(
        "select id from users where email like 'scale-%' order by id limit 1000",
      );
      const probers = startProbers(
        url,
        rows.map((r) => r.id),
      );
      const sampler = startLockSampler(url);
      await new Promise((r) => setTimeout(r, 500));
      const timings: string[] = [];
      const pending = journal.entries.filter((e) => e.idx > LAST_UNCHECKED_MIGRATION).map((e) => e.tag);
      for (const tag of pending) {
        const started = performance.now();
        await runMigrations(migrator as unknown as SqlClient, { lock: true, concurrently: true, until: tag });
        timings.push(`${tag}: ${Math.round(performance.now() - started)} ms`);
      }
      const started = performance.now();
      await runMigrations(migrator as unknown as SqlClient, { lock: true, concurrently: true });
      timings.push(`SQL functions: ${Math.round(performance.now() - started)} ms`);
      await new Promise((r) => setTimeout(r, 500));
      await probers.stop();
      await sampler.stop();

      const longest = Math.max(0, ...sampler.waits.map((w) => w.ms));
      console.info(
        [
          `migrations on ${ONLINE_CUSTOMERS} customers:`,
          ...timings,
          ...probers.runs.map(
            (r) => `probe ${r.table}: ${r.probes} statements, longest ${Math.round(r.longestMs)} ms`,
          ),
          `longest lock wait sampled: ${Math.round(longest)} ms`,
        ].join("\n  "),
      );
      expect(probers.runs.flatMap((r) => r.refused)).toEqual([]);
      expect(probers.runs.every((r) => r.probes > 0)).toBe(true);
      expect(sampler.waits.filter((w) => w.ms > MAX_WAIT_MS)).toEqual([]);
      expect(probers.runs.filter((r) => r.longestMs > MAX_WAIT_MS).map((r) => r.table)).toEqual([]);
      const invalid = await migrator.query(
        "select indexrelid::regclass::text as index from pg_index where not indisvalid",
      );
      expect(invalid.rows).toEqual([]);
      // The table of senders per address, backfilled while the probes paid the exchange's address: exactly what
      // the transfers say, no row lost or stale between the trigger and the batches.
      const differences = await migrator.query(
        `select t.address, t.user_id from (
           select lower(crypto_address) as address, user_id, min(created_at) as first_at, max(created_at) as last_at
           from transfer_requests where user_id is not null group by 1, 2) t
         full join address_senders s on s.address = t.address and s.user_id = t.user_id
         where s.first_at is distinct from t.first_at or s.last_at is distinct from t.last_at`,
      );
      expect(differences.rows).toEqual([]);
    });
  },
);
