import { describe, expect, it } from "vitest";
import { eraseExpiredIdentities } from "@/server/features/closure/erase-identities";
import { objectKeyFromPath } from "@/server/lib/storage/uploads";
import { applyWithLicence, ssnSequence } from "@/tests/support/kyc";
import { createApprovedCustomer, expectLedgerCleanAfterEach, fundCustomer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Decision 059: identity data of a closed account is erased after the retention period by the
// jobs room's loop; the ledger, the history and the login stay. The clock is moved by the pass's `now`.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
const freshSsn = ssnSequence(200, 4100);
const YEAR_MS = 365.25 * 24 * 3600_000;

const as = (who: SignedInUser, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });

/** Through the real KYC desk, with a licence in object storage and a phone number; then money in and out. */
async function customerWithIdentityAndHistory() {
  const customer = await createVerifiedUser(t.database);
  const { response, drivingLicenseFront, drivingLicenseBack } = await applyWithLicence(
    t.app,
    customer.cookie,
    {
      firstName: "Ada",
      lastName: "Lovelace",
      dateOfBirth: "1990-12-10",
      street: "12 Engine Street",
      city: "Baltimore",
      state: "MD",
      zipCode: "21201",
      ssn: freshSsn(),
    },
  );
  expect(response.statusCode, response.body).toBe(200);
  const approved = await as(admin, "PUT", `/api/admin/kyc/${response.json().kyc.id}/approve`, {});
  expect(approved.statusCode, approved.body).toBe(200);
  await t.database.query("update users set phone_number = '+12025550143' where id = $1", [customer.user.id]);
  const opened = await t.database.query<{ n: string }>(
    "select count(*)::text as n from account_requests where user_id = $1 and status = 'approved'",
    [customer.user.id],
  );
  if (opened[0]!.n === "0") {
    const account = await t.database.query<{ id: string }>(
      "select id from account_requests where user_id = $1 and superseded_at is null",
      [customer.user.id],
    );
    const res = await as(admin, "PUT", `/api/admin/account-requests/${account[0]!.id}`, {
      status: "approved",
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  await fundCustomer(t, admin, customer.user.id, "15.00");
  const friend = await createApprovedCustomer(t.database);
  const paid = await t.app.inject({
    method: "POST",
    url: "/api/transfer/tag-payments",
    headers: { cookie: customer.cookie, "idempotency-key": `erase-${customer.user.id}` },
    payload: { tag: `$${friend.user.pillarTag}`, amount: "15.00" },
  });
  expect(paid.statusCode, paid.body).toBe(201);
  const closed = await as(customer, "POST", "/api/account/close", { password: customer.password });
  expect(closed.statusCode, closed.body).toBe(200);
  const keys = [drivingLicenseFront, drivingLicenseBack].map((p) => objectKeyFromPath(p)!);
  return { customer, keys, closedAt: new Date(closed.json().closure.closedAt) };
}

const identityOf = async (who: SignedInUser) => {
  const [kyc] = await t.database.query<Record<string, unknown>>(
    `select ssn_ciphertext, ssn_last4, date_of_birth, street, address, driving_license_front, driving_license_back
       from kyc_applications where user_id = $1`,
    [who.user.id],
  );
  const [user] = await t.database.query<Record<string, unknown>>(
    "select email, first_name, phone_number, identity_erased_at from users where id = $1",
    [who.user.id],
  );
  return { kyc: kyc!, user: user! };
};

describe("erasing a closed account's identity after the retention period", () => {
  it("keeps everything until five years have passed, then erases identity and keeps the ledger", async () => {
    const { customer, keys, closedAt } = await customerWithIdentityAndHistory();
    const storage = t.app.deps.storage;
    for (const key of keys) expect(await storage.stat(key)).not.toBeNull();
    const history = await as(customer, "GET", "/api/transactions");
    expect(history.statusCode).toBe(200);

    // A Form 1099-INT issued to them (decision 070): its figures stay, the TIN and address it copied go.
    await t.database.query(
      `with run as (insert into tax_form_runs (tax_year, run_number, status, total, done)
                    values (2002, (select coalesce(max(run_number), 0) + 1 from tax_form_runs where tax_year = 2002),
                            'done', 1, 1) returning id)
       insert into tax_forms (user_id, tax_year, sequence, run_id, interest_cents, payer_name, payer_tin,
         payer_street, payer_city, payer_state, payer_zip, payer_phone, recipient_name, recipient_first_name,
         recipient_last_name, recipient_street, recipient_city, recipient_state, recipient_zip, tin_last4,
         tin_ciphertext, account_number)
       select $1, 2002, 1, id, 1500, 'Pillar Bank, N.A.', '000000000', '1 Pillar Plaza', 'New York', 'NY', '10001',
         '2125550100', 'Erin Leaving', 'Erin', 'Leaving', '1 Main St', 'New York', 'NY', '10001', '1234',
         'sealed', 'A' from run`,
      [customer.user.id],
    );
    const early = await eraseExpiredIdentities(t.app.deps.database.db, storage, {
      retentionYears: 5,
      now: new Date(closedAt.getTime() + 4.9 * YEAR_MS),
    });
    expect(early.erased).toBe(0);
    const before = await identityOf(customer);
    expect(before.kyc.ssn_ciphertext).not.toBe("");
    expect(before.user.phone_number).toBe("+12025550143");

    const late = await eraseExpiredIdentities(t.app.deps.database.db, storage, {
      retentionYears: 5,
      now: new Date(closedAt.getTime() + 5 * YEAR_MS + 24 * 3600_000),
    });
    expect(late.erased).toBeGreaterThanOrEqual(1);
    const after = await identityOf(customer);
    expect(after.kyc).toEqual({
      ssn_ciphertext: "",
      ssn_last4: "",
      date_of_birth: null,
      street: "",
      address: "",
      driving_license_front: null,
      driving_license_back: null,
    });
    expect(after.user).toMatchObject({ email: customer.email, phone_number: null });
    const forms = await t.database.query(
      `select interest_cents::int as cents, tin_ciphertext, tin_last4, recipient_street, recipient_zip
         from tax_forms where user_id = $1`,
      [customer.user.id],
    );
    expect(forms).toEqual([
      { cents: 1500, tin_ciphertext: "", tin_last4: "", recipient_street: "", recipient_zip: "" },
    ]);
    expect(after.user.identity_erased_at).not.toBeNull();
    for (const key of keys) expect(await storage.stat(key)).toBeNull();
    const [uploads] = await t.database.query<{ n: string }>(
      "select count(*)::text as n from uploads where user_id = $1",
      [customer.user.id],
    );
    expect(uploads!.n).toBe("0");

    // The ledger and the history stay, and the customer still signs in to read them.
    const kept = await as(customer, "GET", "/api/transactions");
    expect(kept.statusCode).toBe(200);
    expect(kept.body).toBe(history.body);
    const [audit] = await t.database.query<{ n: string }>(
      "select count(*)::text as n from audit_log where action = 'account.identity_erased' and target_id = $1",
      [customer.user.id],
    );
    expect(audit!.n).toBe("1");

    // A second pass finds nothing left to do.
    const again = await eraseExpiredIdentities(t.app.deps.database.db, storage, {
      retentionYears: 5,
      now: new Date(closedAt.getTime() + 6 * YEAR_MS),
    });
    expect(again.erased).toBe(0);
  }, 120_000);

  it("never touches an open account", async () => {
    const open = await createApprovedCustomer(t.database);
    await eraseExpiredIdentities(t.app.deps.database.db, t.app.deps.storage, {
      retentionYears: 5,
      now: new Date(Date.now() + 50 * YEAR_MS),
    });
    const { kyc, user } = await identityOf(open);
    expect(kyc.ssn_ciphertext).not.toBe("");
    expect(user.identity_erased_at).toBeNull();
  });
});
