import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { accountRequests, kycApplications } from "@/server/db/schema";
import { createApprovedCustomer, ETH_ADDRESS, expectLedgerClean, fundCustomer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import {
  createVerifiedUser,
  type SignedInUser,
  setUpAdminUser,
  setUpVerifiedUser,
  uniqueSuffix,
} from "@/tests/support/users";

// Every admin list pages by keyset: each row exactly once across pages, in order, with search and status filters.

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
const customer = setUpVerifiedUser(t);

const get = (url: string, who: SignedInUser | null = admin) =>
  t.app.inject({ method: "GET", url, headers: who ? { cookie: who.cookie } : {} });
const post = (url: string, payload: object, who: SignedInUser = admin) =>
  t.app.inject({ method: "POST", url, payload, headers: { cookie: who.cookie } });

/** Follows nextCursor to the end; returns every item and how many pages it took. */
async function walk<T extends object>(url: string, limit = 3) {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = url.includes("?") ? "&" : "?";
    const res = await get(
      `${url}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { items: T[]; nextCursor: string | null };
    expect(body.items.length).toBeLessThanOrEqual(limit);
    items.push(...body.items);
    cursor = body.nextCursor;
    pages++;
  } while (cursor && pages < 50);
  return { items, pages };
}

/** Ids in the server's order (newest first) straight from the table, to compare the pages against. */
const newestFirst = async (table: string, where: string, params: unknown[]) =>
  (
    await t.database.query<{ id: string }>(
      `select id from ${table} where ${where} order by created_at desc, id desc`,
      params,
    )
  ).map((r) => r.id);

const LISTS = [
  "/api/admin/users",
  "/api/admin/kyc-applications",
  "/api/admin/account-requests",
  "/api/admin/transfer-requests",
  "/api/admin/incoming-payments",
  "/api/admin/transactions",
  "/api/admin/chats",
];

describe("every admin list", () => {
  it.each(LISTS)("%s refuses the signed out (401) and customers (403)", async (url) => {
    expect((await get(url, null)).statusCode).toBe(401);
    expect((await get(url, customer)).statusCode).toBe(403);
  });

  it.each(LISTS)("%s answers 400 VALIDATION to a forged cursor, a bad limit or a bad status", async (url) => {
    const forged = [
      "garbage",
      Buffer.from("not json").toString("base64url"),
      Buffer.from(JSON.stringify(["2024-01-01T00:00:00.000000Z", "1' or 1=1"])).toString("base64url"),
      Buffer.from(JSON.stringify([1, 2, 3])).toString("base64url"),
      "%00",
    ];
    for (const cursor of forged) {
      const res = await get(`${url}?cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, `${url} ${cursor}`).toBe(400);
      expect(res.json()).toMatchObject({ code: "VALIDATION", message: expect.any(String) });
    }
    for (const limit of ["0", "201", "abc", "1.5", "-1"]) {
      const res = await get(`${url}?limit=${limit}`);
      expect(res.statusCode, `${url} limit=${limit}`).toBe(400);
      expect(res.json().code).toBe("VALIDATION");
    }
    if (url !== "/api/admin/users" && url !== "/api/admin/chats") {
      const res = await get(`${url}?status=bogus`);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe("VALIDATION");
    }
  });
});

describe("users", () => {
  it("pages every user exactly once, newest first, and searches name, e-mail and $tag", async () => {
    const marker = `pg${uniqueSuffix()}`.slice(0, 12);
    for (let i = 0; i < 7; i++) {
      await createVerifiedUser(t.database, {
        lastName: `Zed${marker}`,
        email: `${marker}_${i}@example.com`,
        pillarTag: `${marker}_${i}`,
      });
    }
    const expected = await newestFirst("users", "email like $1", [`${marker}_%`]);
    const { items, pages } = await walk<{ id: string }>(`/api/admin/users?q=${marker}`);
    expect(pages).toBe(3);
    expect(items.map((u) => u.id)).toEqual(expected);

    expect((await get(`/api/admin/users?q=${marker}_3@EXAMPLE`)).json().items).toHaveLength(1);
    expect((await get(`/api/admin/users?q=%24${marker}_4`)).json().items).toHaveLength(1);
    expect((await get(`/api/admin/users?q=zed${marker.toUpperCase()}`)).json().items).toHaveLength(7);
    // LIKE's wildcards are searched for literally: "_" matches only names that contain one.
    const underscore = (await get(`/api/admin/users?q=${marker}_`)).json().items;
    expect(underscore).toHaveLength(7);
    expect((await get("/api/admin/users?q=%25%25%25")).json().items).toEqual([]);
    expect((await get(`/api/admin/users?q=${marker.slice(0, 4)}%25${marker.slice(5)}`)).json().items).toEqual(
      [],
    );
  });

  it("answers the first page past 65,535 users: no bind parameter per user", async () => {
    // In statements of 10,000: each stays well inside the query timeout with the trigram indexes to write.
    for (let from = 1; from <= 70000; from += 10000) {
      await t.database.query(
        `insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified)
         select 'bulk' || g || '@example.com', 'Bulk', 'User' || g, 'bulk_' || g, 'x', true
         from generate_series($1::int, $1::int + 9999) g`,
        [from],
      );
    }
    const first = await get("/api/admin/users?limit=200");
    expect(first.statusCode).toBe(200);
    expect(first.json().items).toHaveLength(200);
    const next = await get(`/api/admin/users?limit=200&cursor=${first.json().nextCursor}`);
    expect(next.statusCode).toBe(200);
    expect(next.json().items).toHaveLength(200);
    const searched = await get("/api/admin/users?q=bulk69999@");
    expect(searched.json().items.map((u: { email: string }) => u.email)).toEqual(["bulk69999@example.com"]);
    // The headline figures are counted over the whole table, not over a page.
    const stats = (await get("/api/admin/stats")).json();
    expect(stats.totalUsers).toBeGreaterThan(70000);
    // PGlite (wasm) writes 70,000 rows into the three trigram indexes in ~20 s.
  }, 120_000);
});

/** Onboarding rows written directly (their API has its own tests): alternating statuses, one marker name. */
async function onboardingApplicants(marker: string) {
  const statuses = ["pending", "approved", "rejected"] as const;
  for (let i = 0; i < 7; i++) {
    const who = await createVerifiedUser(t.database, { lastName: `Kay${marker}` });
    const status = statuses[i % 3]!;
    const [kyc] = await t.database.db
      .insert(kycApplications)
      .values({
        userId: who.user.id,
        accountType: "personal",
        firstName: "Ada",
        lastName: `Kay${marker}`,
        street: "1 Main St",
        city: "New York",
        state: "NY",
        zipCode: "10001",
        address: "1 Main St, New York, NY 10001",
        ssnCiphertext: "fixture",
        ssnIndex: randomBytes(16).toString("hex"),
        ssnLast4: "1234",
        status,
      })
      .returning({ id: kycApplications.id });
    await t.database.db.insert(accountRequests).values({
      userId: who.user.id,
      kycApplicationId: kyc!.id,
      accountType: "personal",
      status: i % 2 === 0 ? "pending" : "in_review",
    });
  }
}

describe("onboarding lists", () => {
  it("page KYC applications and account requests with search and status filters", async () => {
    const marker = `kq${uniqueSuffix()}`.slice(0, 12);
    await onboardingApplicants(marker);
    const ownedBy = "user_id in (select id from users where last_name = $1)";

    const kyc = await walk<{ id: string; status: string }>(`/api/admin/kyc-applications?q=${marker}`);
    expect(kyc.items.map((k) => k.id)).toEqual(
      await newestFirst("kyc_applications", ownedBy, [`Kay${marker}`]),
    );
    const approved = await walk<{ status: string }>(
      `/api/admin/kyc-applications?q=${marker}&status=approved`,
    );
    expect(approved.items.map((k) => k.status)).toEqual(["approved", "approved"]);

    const requests = await walk<{ id: string }>(`/api/admin/account-requests?q=${marker}`);
    expect(requests.items.map((r) => r.id)).toEqual(
      await newestFirst("account_requests", ownedBy, [`Kay${marker}`]),
    );
    const inReview = await walk<{ status: string }>(
      `/api/admin/account-requests?q=${marker}&status=in_review`,
    );
    expect(inReview.items).toHaveLength(3);
    expect(inReview.items.every((r) => r.status === "in_review")).toBe(true);
  });
});

const transfer = (who: SignedInUser, amount: string) =>
  post(
    "/api/transfer/request",
    {
      amount,
      recipientName: "Sam Lee",
      purpose: "Dinner",
      paymentMethod: "crypto",
      recipientRouting: "CRYPTO",
      cryptoAddress: ETH_ADDRESS,
    },
    who,
  );

describe("the transfer desk", () => {
  it("opens on pending requests and pages to the end, so a flood never hides another customer's", async () => {
    const quiet = await createApprovedCustomer(t.database);
    const noisy = await createApprovedCustomer(t.database);
    await fundCustomer(t, admin, quiet.user.id, "100.00");
    await fundCustomer(t, admin, noisy.user.id, "100.00");
    const hidden = (await transfer(quiet, "5.00")).json().transferRequest.id as string;
    const flood: string[] = [];
    for (let i = 0; i < 8; i++) flood.push((await transfer(noisy, "0.01")).json().transferRequest.id);
    const settled = flood[0]!;
    const done = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${settled}`,
      headers: { cookie: admin.cookie },
      payload: { status: "completed" },
    });
    expect(done.statusCode).toBe(200);

    const pending = await walk<{ id: string; status: string }>("/api/admin/transfer-requests", 4);
    const ids = pending.items.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(await newestFirst("transfer_requests", "status = 'pending'", []));
    expect(ids).toContain(hidden);
    expect(ids).not.toContain(settled);
    expect(pending.items.every((r) => r.status === "pending")).toBe(true);

    const all = await walk<{ id: string }>("/api/admin/transfer-requests?status=all", 4);
    expect(all.items.map((r) => r.id)).toEqual(await newestFirst("transfer_requests", "true", []));
    const completed = (await get("/api/admin/transfer-requests?status=completed")).json().items;
    expect(completed.map((r: { id: string }) => r.id)).toContain(settled);

    const byEmail = (await get(`/api/admin/transfer-requests?q=${encodeURIComponent(quiet.email)}`)).json();
    expect(byEmail.items.map((r: { id: string }) => r.id)).toEqual([hidden]);
    await expectLedgerClean(t.database);
  });
});

describe("money lists", () => {
  it("page incoming payments and transactions with search and status filters", async () => {
    const marker = `mq${uniqueSuffix()}`.slice(0, 12);
    const owner = await createApprovedCustomer(t.database);
    for (let i = 0; i < 7; i++) {
      const payment = await post("/api/admin/incoming-payments", {
        userId: owner.user.id,
        amount: `${i + 1}.00`,
        description: `Wire ${marker} ${i}`,
        status: i < 3 ? "pending" : "processing",
      });
      expect(payment.statusCode, payment.body).toBe(201);
      const credit = await post("/api/admin/transactions", {
        userId: owner.user.id,
        type: "credit",
        amount: `${i + 1}.00`,
        description: `Refund ${marker} ${i}`,
        status: i < 2 ? "pending" : "initiated",
      });
      expect(credit.statusCode, credit.body).toBe(201);
    }

    const payments = await walk<{ id: string }>(`/api/admin/incoming-payments?q=${marker}`);
    expect(payments.pages).toBe(3);
    expect(payments.items.map((p) => p.id)).toEqual(
      await newestFirst("incoming_payments", "description like $1", [`Wire ${marker}%`]),
    );
    expect((await walk(`/api/admin/incoming-payments?q=${marker}&status=pending`)).items).toHaveLength(3);

    const history = await walk<{ id: string; userEmail: string }>(`/api/admin/transactions?q=${marker}`);
    expect(history.items.map((x) => x.id)).toEqual(
      await newestFirst("transactions", "description like $1", [`Refund ${marker}%`]),
    );
    expect(history.items.every((x) => x.userEmail === owner.email)).toBe(true);
    expect((await walk(`/api/admin/transactions?q=${marker}&status=pending`)).items).toHaveLength(2);
    await expectLedgerClean(t.database);
  });
});

describe("the support inbox", () => {
  it("pages conversations by latest activity and searches the customer", async () => {
    const marker = `cq${uniqueSuffix()}`.slice(0, 12);
    const writers: SignedInUser[] = [];
    for (let i = 0; i < 7; i++) {
      const who = await createVerifiedUser(t.database, { lastName: `Chat${marker}` });
      expect((await post("/api/chat/send", { message: `Hello ${i}` }, who)).statusCode).toBe(200);
      writers.push(who);
    }
    const { items, pages } = await walk<{ userId: string }>(`/api/admin/chats?q=chat${marker}`);
    expect(pages).toBe(3);
    expect(items.map((c) => c.userId)).toEqual(writers.map((w) => w.user.id).reverse());
    const one = (await get(`/api/admin/chats?q=${encodeURIComponent(writers[2]!.email)}`)).json();
    expect(one.items.map((c: { userId: string }) => c.userId)).toEqual([writers[2]!.user.id]);
  });
});
