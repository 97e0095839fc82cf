import { describe, expect, it } from "vitest";
import { ADMIN_MESSAGES } from "@/contract/admin";
import { applyWithLicence, ssnSequence } from "@/tests/support/kyc";
import { createFundedCustomer, expectLedgerClean } from "@/tests/support/money";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100" }));
const admin = setUpAdminUser(t);
const freshSsn = ssnSequence(100, 7000);

const as = (who: SignedInUser, method: "GET" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });

/** A customer whose identity check staff approved through the desk (which notifies them): no money yet. */
async function kycApprovedCustomer() {
  const user = await createVerifiedUser(t.database);
  const { response } = await applyWithLicence(t.app, user.cookie, {
    firstName: "Grace",
    lastName: "Hopper",
    dateOfBirth: "1985-12-10",
    street: "2 Compiler Road",
    city: "Arlington",
    state: "VA",
    zipCode: "22201",
    ssn: freshSsn(),
  });
  expect(response.statusCode, response.body).toBe(200);
  const approved = await as(admin, "PUT", `/api/admin/kyc/${response.json().kyc.id}/approve`, {});
  expect(approved.statusCode, approved.body).toBe(200);
  return user;
}

const countFor = async (table: string, userId: string) =>
  Number(
    (
      await t.database.query<{ n: string }>(`select count(*)::text as n from ${table} where user_id = $1`, [
        userId,
      ])
    )[0]!.n,
  );

describe("deleting a customer past KYC approval", () => {
  it("deletes one with no money (their notices and notifications go with them), where it answered 500", async () => {
    const customer = await kycApprovedCustomer();
    expect(await countFor("notifications", customer.user.id)).toBeGreaterThan(0);
    const res = await as(admin, "DELETE", `/api/admin/users/${customer.user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe("User deleted successfully");
    for (const table of ["users", "user_event_counters", "user_events", "notifications", "sessions"]) {
      const column = table === "users" ? "id" : "user_id";
      const [row] = await t.database.query<{ n: string }>(
        `select count(*)::text as n from ${table} where ${column} = $1`,
        [customer.user.id],
      );
      expect(row!.n, table).toBe("0");
    }
    expect((await as(customer, "GET", "/api/auth/user")).statusCode).toBe(401);
    await expectLedgerClean(t.database);
  });

  it("still refuses one who holds money, with the reason and nothing deleted", async () => {
    const customer = await createFundedCustomer(t, admin, "25.00");
    const res = await as(admin, "DELETE", `/api/admin/users/${customer.user.id}`);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(ADMIN_MESSAGES.userHasMoney);
    expect((await as(admin, "GET", `/api/admin/users/${customer.user.id}`)).statusCode).toBe(200);
    await expectLedgerClean(t.database);
  });

  it("keeps notices flowing for everyone else in the same transaction's cascade", async () => {
    const bystander = await kycApprovedCustomer();
    const before = await countFor("user_events", bystander.user.id);
    const doomed = await kycApprovedCustomer();
    expect((await as(admin, "DELETE", `/api/admin/users/${doomed.user.id}`)).statusCode).toBe(200);
    // The bystander's log is untouched, and a change of theirs still makes a notice.
    expect(await countFor("user_events", bystander.user.id)).toBe(before);
    await t.database.query(
      "insert into notifications (user_id, kind, title, body) values ($1, 'security', 'Still here', '')",
      [bystander.user.id],
    );
    expect(await countFor("user_events", bystander.user.id)).toBeGreaterThan(before);
  });
});
