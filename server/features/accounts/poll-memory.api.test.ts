import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import type { Database } from "@/server/db/client";
import { kycApplications } from "@/server/db/schema";
import {
  approveAsSecond,
  createApprovedCustomer,
  expectLedgerClean,
  fundCustomer,
  requestTransfer,
} from "@/tests/support/money";
import { waitFor } from "@/tests/support/server-process";
import { setUpTestApp, type TestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

type App = TestApp["app"];
const POLLS = ["/api/transactions/recent", "/api/account/summary", "/api/kyc/status", "/api/chat/messages"];

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
afterEach(() => {
  vi.restoreAllMocks();
});

const get = (app: App, who: SignedInUser, url: string, etag?: string) =>
  app.inject({
    method: "GET",
    url,
    headers: { cookie: who.cookie, ...(etag ? { "if-none-match": etag } : {}) },
  });

const as = (app: App, who: SignedInUser, method: "POST" | "PUT", url: string, payload: object = {}) =>
  app.inject({ method, url, headers: { cookie: who.cookie }, payload });

/** Every query the app sends to this database, counted at the driver (the pg pool or PGlite). */
function countQueries(database: Database): () => number {
  const client = (database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const spy = vi.spyOn(client, "query");
  return () => spy.mock.calls.length;
}

/**
 * Waits until the app has heard every pushed notice committed so far: a notice's wake-up clears the user's
 * remembered answers (decision 034), so one still on its way would turn a counted 304 into a database read. A
 * sentinel sent after them arrives after them.
 */
async function noticesHeard(app: App, database: Database): Promise<void> {
  const sentinel = randomUUID();
  const changed = vi.spyOn(app.polls, "changed");
  const heard = () =>
    changed.mock.calls.some(([change]) => "userIds" in change && change.userIds.includes(sentinel));
  // Sent again until heard: an app built a moment ago may not be listening yet, and a notice sent before its
  // LISTEN is never delivered. Notices arrive in commit order, so once the sentinel is heard so is every
  // notice committed before it.
  await waitFor("the app to hear the notices sent so far", async () => {
    if (heard()) return true;
    await database.query("select pg_notify('pillar_events', $1)", [sentinel]);
    return heard();
  });
  changed.mockRestore();
}

/** The first poll of each URL: 200 with an ETag. */
async function firstPolls(app: App, who: SignedInUser): Promise<Map<string, string>> {
  const etags = new Map<string, string>();
  for (const url of POLLS) {
    const res = await get(app, who, url);
    expect(res.statusCode, url).toBe(200);
    etags.set(url, String(res.headers.etag));
  }
  return etags;
}

async function expectAll304(app: App, who: SignedInUser, etags: Map<string, string>) {
  for (const [url, etag] of etags) {
    const res = await get(app, who, url, etag);
    expect(res.statusCode, url).toBe(304);
    expect(res.headers.etag, url).toBe(etag);
  }
}

const sendUsdc = (app: App, who: SignedInUser) => requestTransfer(app, who, { amount: "10.00" });

describe("dashboard polls answered from memory", () => {
  it("answers a current repeat poll 304 without a single database query", async () => {
    const customer = await createApprovedCustomer(t.database);
    await noticesHeard(t.app, t.database);
    const etags = await firstPolls(t.app, customer);
    const queries = countQueries(t.database);
    await expectAll304(t.app, customer, etags);
    await expectAll304(t.app, customer, etags);
    expect(queries()).toBe(0);
  });

  it("answers 200 with the new data after each kind of write, on the next poll", async () => {
    const customer = await createApprovedCustomer(t.database);
    const etags = await firstPolls(t.app, customer);
    const changed = async (urls: string[]) => {
      for (const url of urls) {
        const res = await get(t.app, customer, url, etags.get(url));
        expect(res.statusCode, url).toBe(200);
        etags.set(url, String(res.headers.etag));
      }
      await expectAll304(t.app, customer, etags);
    };

    // An incoming payment (admin desk).
    await fundCustomer(t, admin, customer.user.id, "100.00");
    const summary = await get(t.app, customer, "/api/account/summary", etags.get("/api/account/summary"));
    expect(summary.json().totalBalance).toBe("$100.00");
    etags.set("/api/account/summary", String(summary.headers.etag));
    await changed(["/api/transactions/recent"]);

    // The customer's own transfer.
    const sent = await sendUsdc(t.app, customer);
    expect(sent.statusCode, sent.body).toBe(201);
    await changed(["/api/transactions/recent", "/api/account/summary"]);

    // An admin's status change on it.
    const settled = await as(
      t.app,
      admin,
      "PUT",
      `/api/admin/transfer-requests/${sent.json().transferRequest.id}`,
      {
        status: "cancelled",
        adminNotes: "checked",
      },
    );
    expect(settled.statusCode, settled.body).toBe(200);
    await changed(["/api/transactions/recent", "/api/account/summary"]);

    // The customer's chat message, then support's reply.
    expect((await as(t.app, customer, "POST", "/api/chat/send", { message: "hello?" })).statusCode).toBe(200);
    await changed(["/api/chat/messages"]);
    const replied = await as(t.app, admin, "POST", `/api/admin/chats/${customer.user.id}/reply`, {
      message: "Hi",
    });
    expect(replied.statusCode, replied.body).toBe(200);
    const chat = await get(t.app, customer, "/api/chat/messages", etags.get("/api/chat/messages"));
    expect(chat.statusCode).toBe(200);
    expect(chat.json().at(-1)).toMatchObject({ message: "Hi", isFromUser: false });
    etags.set("/api/chat/messages", String(chat.headers.etag));

    // A KYC review (reset needs a rejected application; the rejection is set up directly).
    const [kyc] = await t.database.db
      .update(kycApplications)
      .set({ status: "rejected" })
      .where(eq(kycApplications.userId, customer.user.id))
      .returning({ id: kycApplications.id });
    const reset = await as(t.app, admin, "PUT", `/api/admin/kyc/${kyc!.id}/reset`, {
      notes: "again please",
      reason: "The customer sent a clearer document",
    });
    // Maker-checker: the reset waits for a second compliance member, whose approval is the write.
    expect(reset.statusCode, reset.body).toBe(202);
    const compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
    expect((await approveAsSecond(t, reset, compliance)).statusCode).toBe(200);
    await changed(["/api/kyc/status", "/api/account/summary"]);
    await expectLedgerClean(t.database);
  });

  it("never validates another account's copy, even when both are remembered", async () => {
    const alice = await createApprovedCustomer(t.database);
    const bob = await createApprovedCustomer(t.database);
    const aliceEtags = await firstPolls(t.app, alice);
    const bobEtags = await firstPolls(t.app, bob);
    await expectAll304(t.app, bob, bobEtags);
    for (const [url, etag] of aliceEtags) {
      expect(etag).not.toBe(bobEtags.get(url));
      const res = await get(t.app, bob, url, etag);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers.etag).toBe(bobEtags.get(url));
    }
  });

  it("a customer's write forgets only their own polls", async () => {
    const alice = await createApprovedCustomer(t.database);
    const bob = await createApprovedCustomer(t.database);
    await noticesHeard(t.app, t.database);
    const bobEtags = await firstPolls(t.app, bob);
    expect((await as(t.app, alice, "POST", "/api/chat/send", { message: "hi" })).statusCode).toBe(200);
    const queries = countQueries(t.database);
    await expectAll304(t.app, bob, bobEtags);
    expect(queries()).toBe(0);
  });
});

describe("a change behind this instance's back (a lost notice)", () => {
  it("is stale for at most POLL_MEMORY_MS, then the database is asked again", async () => {
    // The poll memory's clock is the test's: the window is crossed by hand, not by hoping the machine is fast.
    let now = Date.now();
    const short = await buildApp(
      {
        config: loadConfig({
          NODE_ENV: "test",
          DATA_DIR: t.dataDir,
          LOG_LEVEL: "silent",
          POLL_MEMORY_MS: "1000",
        }),
        database: t.database,
      },
      { logger: false, pollClock: () => now },
    );
    try {
      const customer = await createApprovedCustomer(t.database);
      // The customer's own creation notifies every instance: heard before the first read, so that a notice
      // arriving late on a busy machine cannot empty the memory this test is about.
      await noticesHeard(short, t.database);
      const url = "/api/kyc/status";
      const first = await get(short, customer, url);
      const etag = String(first.headers.etag);
      // Written straight to the database with its triggers off: no app write path and no pushed notice, so
      // nothing tells any instance (a notice lost on its way is the same to this instance).
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx
          .update(kycApplications)
          .set({ adminNotes: "looked again" })
          .where(eq(kycApplications.userId, customer.user.id));
      });
      // Inside the window the remembered ETag still answers: the bounded stale read a lost notice costs.
      expect((await get(short, customer, url, etag)).statusCode).toBe(304);
      now += 999;
      expect((await get(short, customer, url, etag)).statusCode).toBe(304);
      // At POLL_MEMORY_MS the memory is no longer trusted: the database is asked and the change shows.
      now += 1;
      const fresh = await get(short, customer, url, etag);
      expect(fresh.statusCode).toBe(200);
      expect(fresh.headers.etag).not.toBe(etag);
    } finally {
      await short.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)("two instances on one PostgreSQL", () => {
  let b: App;
  beforeAll(async () => {
    // Instance B: its own memory and listener, the same database.
    b = await buildApp(
      {
        config: loadConfig({
          NODE_ENV: "test",
          DATA_DIR: t.dataDir,
          LOG_LEVEL: "silent",
          RATE_LIMIT_SCALE: "100",
        }),
        database: t.database,
      },
      { logger: false },
    );
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
  });

  it("a write on A makes B's next poll 200 with the new data, well inside the 5 s", async () => {
    const customer = await createApprovedCustomer(t.database);
    const etags = await firstPolls(b, customer);
    await expectAll304(b, customer, etags);

    // A customer's own write on A.
    expect((await as(t.app, customer, "POST", "/api/chat/send", { message: "from A" })).statusCode).toBe(200);
    const chat = await waitFor(
      "B to see the message sent on A",
      async () => {
        const res = await get(b, customer, "/api/chat/messages", etags.get("/api/chat/messages"));
        return res.statusCode === 200 ? res : null;
      },
      { timeoutMs: 1_000, intervalMs: 20 },
    );
    expect(chat.json().at(-1)).toMatchObject({ message: "from A", isFromUser: true });

    // An admin's write on A.
    await fundCustomer(t, admin, customer.user.id, "42.00");
    const summary = await waitFor(
      "B to see the payment credited on A",
      async () => {
        const res = await get(b, customer, "/api/account/summary", etags.get("/api/account/summary"));
        return res.statusCode === 200 ? res : null;
      },
      { timeoutMs: 1_000, intervalMs: 20 },
    );
    expect(summary.json().totalBalance).toBe("$42.00");
    await expectLedgerClean(t.database);
  });
});
