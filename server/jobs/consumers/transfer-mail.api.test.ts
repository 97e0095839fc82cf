import { sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { type Consumer, consumerPass, ensureCursor } from "@/server/jobs/consumer";
import { transferMailConsumer } from "@/server/jobs/consumers/transfer-mail";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser } from "@/tests/support/users";

// The "Transfer requested" mail and its "This wasn't me" link after the commit (decision 049): written by the
// jobs room's transfer-mail consumer in the transaction that moves its cursor, so exactly once per transfer.
// The app's own consumers run only when drained; the one under test here runs by hand under its own cursor.
const t = setUpTestApp(
  { RATE_LIMIT_SCALE: "100", PUBLIC_URL: "https://bank.example" },
  { jobs: { consumerEveryMs: 3_600_000, consumerWakeDelayMs: 3_600_000 } },
);
const admin = setUpAdminUser(t);
const onPostgres = Boolean(process.env.DATABASE_URL);

const TRANSFER = { amount: "25.00", recipientName: "Grace Hopper", purpose: "Rent" };

const mailsTo = (email: string) =>
  t.database.query<{ subject: string; text_body: string }>(
    "select subject, text_body from mail_outbox where to_address = $1 and kind = 'transfer_requested' order by created_at",
    [email],
  );
const linksOf = (userId: string) =>
  t.database.query<{ reason: string }>("select reason from freeze_links where user_id = $1", [userId]);

/** Runs a consumer's passes until it has read the whole log, through the jobs room's own pass. */
async function runToEnd(consumer: Consumer) {
  const pass = consumerPass(t.database.db, consumer, undefined, pino({ level: "silent" }));
  // Up to 30 s: another database's transaction on the same server (a parallel test file's) holds the log back as
  // long as it runs (the snapshot's xmin is the server's), and a loaded machine runs them longer.
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    // A failed pass throws (the jobs room's loop retries it): here the next pass is the retry.
    const answer = await pass().catch(() => ({ done: 0, more: true }));
    const [behind] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from events e, job_cursors c
        where c.consumer = $1 and (e.xact, e.id) > (c.xact, c.event_id)`,
      [consumer.name],
    );
    if (!(answer as { more: boolean }).more && behind!.n === 0) return;
    // Events another database's open transaction still hides (consumer.ts's snapshot rule) show up shortly.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${consumer.name} never reached the end of the log`);
}

describe("the transfer-mail consumer", () => {
  it("writes each transfer's mail and link once, after the commit, and none for a replay", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    const key = `mail-once-${customer.user.id}`;
    const first = await requestTransfer(t.app, customer, TRANSFER, key);
    expect(first.statusCode, first.body).toBe(201);
    // Not in the request: nothing until the jobs room runs.
    expect(await mailsTo(customer.email)).toEqual([]);
    expect(await linksOf(customer.user.id)).toEqual([]);
    await t.app.jobs.drainConsumers();
    const [mail] = await mailsTo(customer.email);
    expect(mail!.subject).toBe("Pillar: transfer of $25.00 requested");
    expect(mail!.text_body).toContain("To: Grace Hopper");
    expect(mail!.text_body).toContain("https://bank.example/this-wasnt-me#token=");
    expect(await linksOf(customer.user.id)).toEqual([{ reason: "transfer" }]);

    const replay = await requestTransfer(t.app, customer, TRANSFER, key);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    await t.app.jobs.drainConsumers();
    expect(await mailsTo(customer.email)).toHaveLength(1);
    await expectLedgerClean(t.database);
  });

  it("writes each mail exactly once when its batch's transaction dies mid-way and the batch runs again", async () => {
    const name = `transfer-mail-killed-${Date.now()}`;
    await ensureCursor(t.database.db, name);
    const customers = [];
    for (let i = 0; i < 3; i++) customers.push(await createFundedCustomer(t, admin, "50.00"));
    for (const customer of customers) {
      expect((await requestTransfer(t.app, customer, { amount: "5.00" })).statusCode).toBe(201);
    }
    const real = transferMailConsumer(t.app.deps);
    let batches = 0;
    const killedOnce: Consumer = {
      ...real,
      name,
      async handle(tx, events) {
        await real.handle(tx, events);
        batches += 1;
        if (batches > 1) return;
        // After the batch's mail and links are written, before its cursor moves: the transaction dies (on
        // PostgreSQL its backend is terminated; PGlite has only the one, so the batch throws instead).
        if (onPostgres) await tx.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
        throw new Error("the batch died mid-way");
      },
    };
    await runToEnd(killedOnce);
    expect(batches).toBeGreaterThan(1);
    for (const customer of customers) {
      // The app's own transfer-mail consumer never ran: these are the ones under test's, one each.
      expect(await mailsTo(customer.email)).toHaveLength(1);
      expect(await linksOf(customer.user.id)).toEqual([{ reason: "transfer" }]);
    }
    // Its cursor moved with the batch that committed: running it again writes nothing more.
    await runToEnd(killedOnce);
    for (const customer of customers) expect(await mailsTo(customer.email)).toHaveLength(1);
    await expectLedgerClean(t.database);
  });
});
