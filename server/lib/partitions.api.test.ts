import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import { createPgDatabase, type Database } from "@/server/db/client";
import { runMigrations, type SqlClient } from "@/server/db/migrate";
import { verifyLedger } from "@/server/lib/ledger";
import { dropExpiredPartitions, premakePartitions } from "@/server/lib/partitions";
import { withDatabase } from "@/tests/support/global-setup";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { setUpTestApp, type TestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser } from "@/tests/support/users";

const PARTITIONED = ["audit_log", "events", "notifications", "transactions", "user_events"];
const onPg = Boolean(process.env.DATABASE_URL);
const MIGRATIONS = path.join(process.cwd(), "server/db/migrations");

/** The first instant of the UTC month `offset` months from now's. */
const month = (offset: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
};
const yyyymm = (d: Date) => `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}`;

async function partitionedTables(database: Database) {
  return (
    await database.query<{ name: string }>(
      "select c.relname as name from pg_partitioned_table p join pg_class c on c.oid = p.partrelid order by 1",
    )
  ).map((r) => r.name);
}

async function bounds(database: Database, table: string) {
  return database.query<{ name: string; lower: Date | null; upper: Date }>(
    "select name, lower, upper from partition_bounds($1)",
    [table],
  );
}

describe("monthly partitions (decision 063)", () => {
  const t = setUpTestApp();

  it.runIf(onPg)(
    "partitions the five tables on PostgreSQL, and a transfer lands in this month's partition",
    async () => {
      expect(await partitionedTables(t.database)).toEqual(PARTITIONED);
      const admin = await createAdminUser(t.database);
      const customer = await createFundedCustomer(t, admin, "500.00");
      const sent = await requestTransfer(t.app, customer, { amount: "12.34" });
      expect(sent.statusCode, sent.body).toBe(201);

      const where = await t.database.query<{ partition: string }>(
        "select distinct tableoid::regclass::text as partition from transactions where user_id = $1",
        [customer.user.id],
      );
      expect(where).toEqual([{ partition: `transactions_${yyyymm(month(0))}` }]);
      const audit = await t.database.query<{ partition: string }>(
        "select distinct tableoid::regclass::text as partition from audit_log where subject_user_id = $1",
        [customer.user.id],
      );
      expect(audit).toEqual([{ partition: `audit_log_${yyyymm(month(0))}` }]);
      // The history reads the parent: the transfer and the funding are both there.
      const history = await t.app.inject({
        method: "GET",
        url: "/api/transactions",
        headers: { cookie: customer.cookie },
      });
      expect(history.statusCode, history.body).toBe(200);
      expect(JSON.stringify(history.json())).toContain("12.34");
      await expectLedgerClean(t.database);
    },
  );

  it.runIf(!onPg)(
    "keeps one table of each on PGlite, where the partition job has nothing to do",
    async () => {
      expect(await partitionedTables(t.database)).toEqual([]);
      expect(await premakePartitions(t.database.db)).toEqual([]);
      expect(await dropExpiredPartitions(t.database.db, { notifications: "1 day" }, month(30))).toEqual([]);
    },
  );

  it.runIf(onPg)("makes the coming months once, however many runners ask at the same time", async () => {
    const [a, b] = await Promise.all([
      premakePartitions(t.database.db, 5),
      premakePartitions(t.database.db, 5),
    ]);
    const made = [...a, ...b];
    expect(new Set(made).size).toBe(made.length);
    expect(made).toContain(`transactions_${yyyymm(month(5))}`);
    expect(await premakePartitions(t.database.db, 5)).toEqual([]);
    for (const table of PARTITIONED) {
      const months = await bounds(t.database, table);
      // Contiguous: each month starts where the one before ends, up to six months on.
      for (let i = 1; i < months.length; i++) expect(months[i]!.lower).toEqual(months[i - 1]!.upper);
      expect(months.at(-1)!.upper).toEqual(month(6));
    }
  });

  it.runIf(onPg)("drops whole months past the retention, never one holding a row within it", async () => {
    await premakePartitions(t.database.db, 3);
    const customer = await createVerifiedUser(t.database);
    const nextMonth = month(1);
    await t.database.query(
      `insert into notifications (user_id, kind, title, body, created_at) values
         ($1, 'money_in', 'this month', '', now()),
         ($1, 'money_in', 'next month', '', $2::timestamptz + interval '1 day')`,
      [customer.user.id, nextMonth.toISOString()],
    );
    // Thirteen months and ten days after next month begins: this month is wholly past 13 months, next month is
    // not (its end is within them), though its first row is.
    const later = new Date(nextMonth.getTime() + (13 * 31 + 10) * 86_400_000);
    const keep = new Date(later);
    keep.setUTCMonth(keep.getUTCMonth() - 13);
    expect(keep < month(2)).toBe(true);
    const dropped = await dropExpiredPartitions(t.database.db, { notifications: "13 months" }, later);
    expect(dropped.sort()).toEqual([
      `notifications_${yyyymm(month(0))}`,
      `notifications_before_${yyyymm(month(0))}`,
    ]);
    const titles = await t.database.query<{ title: string }>(
      "select title from notifications where user_id = $1",
      [customer.user.id],
    );
    expect(titles).toEqual([{ title: "next month" }]);
    expect((await bounds(t.database, "notifications"))[0]!.lower).toEqual(nextMonth);
    // Nothing more to drop at the same date.
    expect(await dropExpiredPartitions(t.database.db, { notifications: "13 months" }, later)).toEqual([]);
  });

  it.runIf(onPg)(
    "drops a month beside customers' writes without a deadlock, and gives up rather than wait on a long reader",
    async () => {
      const customer = await createVerifiedUser(t.database);
      const expired = `user_events_before_${yyyymm(month(0))}`;
      // Two days into this month with a day's retention: only the month before the partitioning has expired.
      const later = new Date(month(0).getTime() + 2 * 86_400_000);
      const drop = () => dropExpiredPartitions(t.database.db, { user_events: "1 day" }, later);
      const writer = new pg.Client({ connectionString: (t.database as { url?: string }).url });
      await writer.connect();
      try {
        // A long reader of user_events: the drop waits 200 ms at most, drops nothing, and the reader never notices.
        await writer.query("begin");
        await writer.query("select count(*) from user_events");
        const started = Date.now();
        expect(await drop()).toEqual([]);
        expect(Date.now() - started).toBeLessThan(5_000);
        await writer.query("commit");

        // As a sign-up's statement does: hold users (a foreign key's check), then read user_events. The drop in
        // between used to detach the month and then need ACCESS EXCLUSIVE on users (the detached month's own
        // foreign key): the writer waited on user_events, the drop on users, and PostgreSQL cancelled the writer.
        await writer.query("begin");
        await writer.query("select 1 from users where id = $1 for key share", [customer.user.id]);
        const dropping = drop();
        await new Promise((resolve) => setTimeout(resolve, 100));
        const read = await writer.query("select count(*)::int as n from user_events where user_id = $1", [
          customer.user.id,
        ]);
        await writer.query("commit");
        // The writer's read answered (it was not the deadlock's victim).
        expect(read.rowCount).toBe(1);
        expect(await dropping).toEqual([expired]);
      } finally {
        await writer.end();
      }
      expect((await bounds(t.database, "user_events")).map((b) => b.name)).not.toContain(expired);
    },
  );

  it.runIf(onPg)("keeps the event log's months until every consumer has read past them", async () => {
    await t.database.query("delete from job_cursors");
    await t.database.query(
      "insert into events (kind, payload) values ('test.first', '{}'), ('test.second', '{}')",
    );
    await t.database.query(
      `insert into job_cursors (consumer, xact, event_id)
       select 'behind', xact, id from events where kind = 'test.first'`,
    );
    const later = month(3);
    // The empty partition before this month may go; this month's, holding an unread event, stays.
    expect(await dropExpiredPartitions(t.database.db, { events: "7 days" }, later)).not.toContain(
      `events_${yyyymm(month(0))}`,
    );
    expect(await t.database.query("select 1 from events where kind like 'test.%'")).toHaveLength(2);
    await t.database.query(
      `update job_cursors set (xact, event_id) = (select xact, id from events where kind = 'test.second')`,
    );
    expect(await dropExpiredPartitions(t.database.db, { events: "7 days" }, later)).toContain(
      `events_${yyyymm(month(0))}`,
    );
    expect(await t.database.query("select 1 from events where kind like 'test.%'")).toEqual([]);
  });
});

describe.runIf(onPg)("the migration on a database holding rows", () => {
  const serverUrl = process.env.DATABASE_URL ?? "";
  const name = `pillar_partition_${process.pid}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-partition-"));
  const before = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-migrations-"));
  let database: Database | undefined;
  let app: TestApp["app"] | undefined;

  afterAll(async () => {
    await app?.close();
    await database?.close();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(before, { recursive: true, force: true });
  });

  async function migrate(url: string, dir?: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await runMigrations(client as unknown as SqlClient, { lock: true, ...(dir ? { dir } : {}) });
    } finally {
      await client.end();
    }
  }

  it("converts the tables with their rows in place, and money keeps moving", async () => {
    // The migrations before this one, as a database upgraded from them has them.
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8")) as {
      entries: { idx: number; tag: string }[];
    };
    journal.entries = journal.entries.filter((e) => e.idx < 53);
    fs.mkdirSync(path.join(before, "meta"));
    fs.writeFileSync(path.join(before, "meta/_journal.json"), JSON.stringify(journal));
    for (const e of journal.entries)
      fs.copyFileSync(path.join(MIGRATIONS, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));

    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = withDatabase(serverUrl, name);
    await migrate(url, before);
    database = createPgDatabase(url, 4);
    expect(await partitionedTables(database)).toEqual([]);

    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    app = await buildApp({ config, database }, { logger: false });
    const t: TestApp = { app, database, dataDir, close: async () => {} };
    const staff = await createAdminUser(database);
    const customer = await createFundedCustomer(t, staff, "900.00");
    expect((await requestTransfer(app, customer, { amount: "20.00" })).statusCode).toBe(201);
    await database.query(
      `insert into notifications (user_id, kind, title, body, created_at)
       select $1, 'money_in', 'old ' || n, '', now() - n * interval '1 month' from generate_series(1, 12) n`,
      [customer.user.id],
    );
    await database.query("insert into events (kind, payload) values ('test.before', '{}')");
    const count = async () =>
      database!.query<{ t: string; n: string; a: string; e: string }>(
        `select (select count(*) from transactions) as t, (select count(*) from notifications) as n,
                (select count(*) from audit_log) as a, (select max(id)::text from events) as e`,
      );
    const [rows] = await count();

    expect(await migrate(url)).toContain("0053_monthly_partitions");
    expect(await partitionedTables(database)).toEqual(PARTITIONED);
    expect((await count())[0]).toEqual(rows);
    // The old table is the partition of everything before the cutoff, a month or more ahead.
    const cutoff = month(2);
    expect(await bounds(database, "transactions")).toEqual([
      { name: `transactions_before_${yyyymm(cutoff)}`, lower: null, upper: cutoff },
    ]);
    expect(
      await database.query(
        "select 1 from pg_constraint where conname = 'transactions_before_partitioning' and convalidated",
      ),
    ).toHaveLength(1);

    // The same app goes on: a transfer after the conversion, and a new event continues the old numbering.
    expect((await requestTransfer(app, customer, { amount: "30.00" })).statusCode).toBe(201);
    await database.query("insert into events (kind, payload) values ('test.after', '{}')");
    const [after] = await database.query<{ id: string }>(
      "select id::text from events where kind = 'test.after'",
    );
    expect(BigInt(after!.id)).toBeGreaterThan(BigInt(rows!.e));
    // Rows from the cutoff on need the months the job makes.
    await premakePartitions(database.db, 3);
    await database.query(
      "insert into notifications (user_id, kind, title, body, created_at) values ($1, 'money_in', 'later', '', $2)",
      [customer.user.id, new Date(cutoff.getTime() + 86_400_000).toISOString()],
    );
    const [later] = await database.query<{ partition: string }>(
      "select tableoid::regclass::text as partition from notifications where title = 'later'",
    );
    expect(later!.partition).toBe(`notifications_${yyyymm(cutoff)}`);
    expect(await migrate(url)).toEqual([]);
    const report = await verifyLedger(database.db);
    expect(report.problems).toEqual([]);
  });
});
