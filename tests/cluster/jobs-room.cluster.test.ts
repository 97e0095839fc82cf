import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIncomingPayment } from "@/server/features/credits/incoming-payments";
import { type Cluster, startCluster, tokenOf } from "@/tests/support/cluster";
import { request } from "@/tests/support/http-client";
import { createApprovedCustomer, ETH_ADDRESS } from "@/tests/support/money";
import { waitFor } from "@/tests/support/server-process";
import { expectTransfersConsistent } from "@/tests/support/transfer-invariants";
import { createAdminUser, type SignedInUser } from "@/tests/support/users";

// Decision 051: the jobs room's consumers are exactly once in effect. Three instances consume the event log
// while transfers arrive; an instance is killed (SIGKILL) while one of them holds a transfer-mail batch open,
// its inserts written and not committed. The batch rolls back with the connection and another instance does
// it again: every transfer ends with exactly one "Transfer requested" mail and one "This wasn't me" link.
let cluster: Cluster;
let admin: SignedInUser;

beforeAll(async () => {
  cluster = await startCluster(3, { RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "100000" });
  admin = await createAdminUser(cluster.scratch.database);
}, 300_000);
afterAll(async () => {
  await cluster?.stop();
});

const CUSTOMERS = 12;
const PER_CUSTOMER = 25;
const KILLS = 3;

/** The instance (its PGAPPNAME) holding a transfer-mail batch open with its writes done, if any. */
async function batchHolder(): Promise<string | null> {
  const [row] = await cluster.scratch.database.query<{ name: string }>(
    `select a.application_name as name from pg_stat_activity a
     where a.datname = current_database() and a.application_name like 'pillar-app%' and a.xact_start is not null
       and exists (select 1 from pg_locks l where l.pid = a.pid and l.relation = 'job_cursors'::regclass)
       and exists (select 1 from pg_locks l where l.pid = a.pid and l.relation = 'freeze_links'::regclass
                   and l.mode = 'RowExclusiveLock')
     limit 1`,
  );
  return row?.name ?? null;
}

async function send(customer: SignedInUser, key: string, amount: string): Promise<void> {
  for (let tries = 0; tries < 60; tries++) {
    try {
      const reply = await request(cluster.lb.url, "/api/transfer/request", {
        method: "POST",
        headers: { cookie: cluster.cookieFor(tokenOf(customer.cookie)), "idempotency-key": key },
        body: {
          amount,
          recipientName: "Grace Hopper",
          purpose: "Jobs room",
          paymentMethod: "crypto",
          cryptoAddress: ETH_ADDRESS,
        },
      });
      if (reply.fromApp && reply.status === 201) return;
      if (reply.fromApp && reply.status !== 503)
        throw new Error(`${key}: ${reply.status} ${JSON.stringify(reply.body)}`);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith(key)) throw err;
      // A reset by the balancer while an instance died: the same key again.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${key}: no answer`);
}

describe("the jobs room under kill -9", () => {
  it("writes each transfer's mail and link exactly once while instances die mid-batch", async () => {
    const customers: SignedInUser[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const customer = await createApprovedCustomer(cluster.scratch.database);
      await createIncomingPayment(cluster.scratch.database.db, admin.user.id, {
        userId: customer.user.id,
        amount: "1000.00",
        status: "completed",
      });
      customers.push(customer);
    }
    // Distinct amounts per customer ($1.01, $1.02, …): each mail names its transfer's amount.
    const amountOf = (n: number) => `1.${String(n + 1).padStart(2, "0")}`;

    let sending = true;
    const killed: string[] = [];
    const killer = (async () => {
      while (sending && killed.length < KILLS) {
        const holder = await batchHolder();
        const instance = holder && cluster.instances.find((x) => `pillar-${x.name}` === holder);
        if (
          instance &&
          instance.server.child.exitCode === null &&
          instance.server.child.signalCode === null
        ) {
          await instance.server.crash();
          killed.push(instance.name);
          // The next kill waits for this one's restart: two of three always consume.
          await cluster.ensureHealthy();
        }
      }
    })();
    await Promise.all(
      customers.map(async (customer, c) => {
        for (let n = 0; n < PER_CUSTOMER; n++) await send(customer, `jobs-${c}-${n}`, amountOf(n));
      }),
    );
    sending = false;
    await killer;
    await cluster.ensureHealthy();

    const { database } = cluster.scratch;
    // Every consumer catches up with the log (the cursors reach its last event).
    await waitFor(
      "every consumer to reach the end of the log",
      async () => {
        const [behind] = await database.query<{ n: number }>(
          `select count(*)::int as n from job_cursors c
           where (c.xact, c.event_id) < (select xact, id from events order by xact desc, id desc limit 1)`,
        );
        return behind?.n === 0;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );

    for (const customer of customers) {
      const [transfers] = await database.query<{ n: number }>(
        "select count(*)::int as n from transfer_requests where user_id = $1",
        [customer.user.id],
      );
      expect(transfers?.n).toBe(PER_CUSTOMER);
      const mails = await database.query<{ text_body: string }>(
        "select text_body from mail_outbox where to_address = $1 and kind = 'transfer_requested'",
        [customer.email],
      );
      for (let n = 0; n < PER_CUSTOMER; n++) {
        const named = mails.filter((m) => m.text_body.includes(`$${amountOf(n)}`));
        expect(named.length, `${customer.email} $${amountOf(n)}`).toBe(1);
      }
      expect(mails.length).toBe(PER_CUSTOMER);
      const [links] = await database.query<{ n: number }>(
        "select count(*)::int as n from freeze_links where user_id = $1 and reason = 'transfer'",
        [customer.user.id],
      );
      expect(links?.n).toBe(PER_CUSTOMER);
    }
    expect(await database.query("select consumer, event_id, error from job_failures")).toEqual([]);
    await expectTransfersConsistent(database, cluster.scratch.url);
    // At least one kill landed inside a batch (its writes made, its commit not): otherwise this proved nothing.
    expect(killed.length, "no instance was caught holding a transfer-mail batch open").toBeGreaterThan(0);
  }, 600_000);
});
