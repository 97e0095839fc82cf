import { describe, expect, it } from "vitest";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Decision 059: a customer with money history is never deleted (a bank keeps records five years); staff close
// it.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

const as = (who: SignedInUser, method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });

async function customerWithHistoryAndZeroBalance() {
  const customer = await createFundedCustomer(t, admin, "25.00");
  const friend = await createApprovedCustomer(t.database);
  const paid = await t.app.inject({
    method: "POST",
    url: "/api/transfer/tag-payments",
    headers: { cookie: customer.cookie, "idempotency-key": `history-${customer.user.id}` },
    payload: { tag: `$${friend.user.pillarTag}`, amount: "25.00" },
  });
  expect(paid.statusCode, paid.body).toBe(201);
  return customer;
}

describe("deleting a customer with money history", () => {
  it("answers 409 pointing staff to closure, where it answered 500, and deletes nothing", async () => {
    const customer = await customerWithHistoryAndZeroBalance();
    const res = await as(admin, "DELETE", `/api/admin/users/${customer.user.id}`);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/close the account instead/i);
    expect(res.json().hasMoneyHistory).toBe(true);
    expect((await as(admin, "GET", `/api/admin/users/${customer.user.id}`)).statusCode).toBe(200);
    const [audit] = await t.database.query<{ n: string }>(
      "select count(*)::text as n from audit_log where action = 'user.delete' and target_id = $1",
      [customer.user.id],
    );
    expect(audit!.n).toBe("0");
  });

  it("still deletes an approved customer who never moved money", async () => {
    const customer = await createApprovedCustomer(t.database);
    const res = await as(admin, "DELETE", `/api/admin/users/${customer.user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await as(admin, "GET", `/api/admin/users/${customer.user.id}`)).statusCode).toBe(404);
  });
});
