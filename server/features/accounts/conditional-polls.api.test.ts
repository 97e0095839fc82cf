import { describe, expect, it } from "vitest";
import {
  createApprovedCustomer,
  expectLedgerClean,
  fundCustomer,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);

const get = (who: SignedInUser, url: string, etag?: string) =>
  t.app.inject({
    method: "GET",
    url,
    headers: { cookie: who.cookie, ...(etag ? { "if-none-match": etag } : {}) },
  });

/** First poll: 200 with an ETag; the same poll again with it: 304, no body, same ETag. */
async function expectRepeatIs304(who: SignedInUser, url: string): Promise<string> {
  const first = await get(who, url);
  expect(first.statusCode).toBe(200);
  const etag = String(first.headers.etag);
  expect(etag).toMatch(/^"[a-z]+-[\w-]+"$/);
  const again = await get(who, url, etag);
  expect(again.statusCode).toBe(304);
  expect(again.body).toBe("");
  expect(again.headers.etag).toBe(etag);
  expect(again.headers["cache-control"]).toBe("no-store");
  return etag;
}

async function expectChanged(who: SignedInUser, url: string, etag: string): Promise<string> {
  const res = await get(who, url, etag);
  expect(res.statusCode).toBe(200);
  expect(res.headers.etag).not.toBe(etag);
  return String(res.headers.etag);
}

const sendUsdc = (who: SignedInUser) => requestTransfer(t.app, who, { amount: "10.00" });

describe("conditional dashboard polls", () => {
  it("answers a current recent-transactions poll 304 and a changed one 200", async () => {
    const customer = await createApprovedCustomer(t.database);
    const url = "/api/transactions/recent";
    let etag = await expectRepeatIs304(customer, url);
    await fundCustomer(t, admin, customer.user.id, "100.00");
    etag = await expectChanged(customer, url, etag);
    const sent = await sendUsdc(customer);
    expect(sent.statusCode, sent.body).toBe(201);
    const fresh = await get(customer, url, etag);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()[0]).toMatchObject({ type: "debit", status: "pending" });
    etag = String(fresh.headers.etag);
    // A status change on a row already in the list moves the ETag too.
    const settled = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${sent.json().transferRequest.id}`,
      headers: { cookie: admin.cookie },
      payload: { status: "cancelled", adminNotes: "checked" },
    });
    expect(settled.statusCode, settled.body).toBe(200);
    await expectChanged(customer, url, etag);
    await expectLedgerClean(t.database);
  });

  it("answers a current account-summary poll 304 and one after a balance change 200", async () => {
    const customer = await createApprovedCustomer(t.database);
    const url = "/api/account/summary";
    const etag = await expectRepeatIs304(customer, url);
    await fundCustomer(t, admin, customer.user.id, "25.00");
    const res = await get(customer, url, etag);
    expect(res.statusCode).toBe(200);
    expect(res.json().totalBalance).toBe("$25.00");
  });

  it("answers a current KYC-status poll 304 and one after a review change 200", async () => {
    const customer = await createApprovedCustomer(t.database);
    const etag = await expectRepeatIs304(customer, "/api/kyc/status");
    const summaryEtag = await expectRepeatIs304(customer, "/api/account/summary");
    await t.database.query("update kyc_applications set admin_notes = 'looked again' where user_id = $1", [
      customer.user.id,
    ]);
    // Written behind the app's back, so no write path told the poll memory: do what one would.
    t.app.polls.changed({ userIds: [customer.user.id] });
    await expectChanged(customer, "/api/kyc/status", etag);
    await expectChanged(customer, "/api/account/summary", summaryEtag);
  });

  it("never validates another account's copy, even when their data look alike", async () => {
    const alice = await createApprovedCustomer(t.database);
    const bob = await createApprovedCustomer(t.database);
    for (const url of ["/api/transactions/recent", "/api/account/summary", "/api/kyc/status"]) {
      const aliceEtag = String((await get(alice, url)).headers.etag);
      expect((await get(bob, url, aliceEtag)).statusCode).toBe(200);
    }
  });
});
