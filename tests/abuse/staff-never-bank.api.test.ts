import { describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES } from "@/contract/credits";
import { STAFF_MANAGEMENT_MESSAGES } from "@/contract/staff";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { grantStaffRoles } from "@/server/features/staff/grant-staff-roles";
import { applyWithLicence } from "@/tests/support/kyc";
import {
  createApprovedCustomer,
  expectLedgerCleanAfterEach,
  fundCustomer,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, logIn, type SignedInUser, setUpVerifiedUser } from "@/tests/support/users";

// Staff never bank (docs/architecture.md, Staff roles). No money reaches an account holding a staff role by any
// route, staff file no identity check, save no recipient and send no transfer, and no account becomes staff while
// money is on it or on its way to it.
const CONFIGURED_OWNER = "configured-owner@example.com";
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", ADMIN_EMAILS: CONFIGURED_OWNER });
const staff = {
  finance: setUpVerifiedUser(t, { staffRoles: ["finance"] }),
  finance2: setUpVerifiedUser(t, { staffRoles: ["finance"] }),
  owner: setUpVerifiedUser(t, { staffRoles: ["owner"] }),
};
expectLedgerCleanAfterEach(t);

const call = (who: SignedInUser, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });

/** The wallet, its history and everything addressed to it: all must stay empty for staff. */
async function moneyOf(userId: string) {
  const [row] = await t.database.query<{
    balance: string;
    held: string;
    transactions: number;
    payments: number;
    transfers: number;
  }>(
    `select coalesce((select balance from ledger_accounts where user_id = $1), 0)::text as balance,
            coalesce((select held from ledger_accounts where user_id = $1), 0)::text as held,
            (select count(*)::int from transactions where user_id = $1) as transactions,
            (select count(*)::int from incoming_payments where user_id = $1) as payments,
            (select count(*)::int from transfer_requests where user_id = $1) as transfers`,
    [userId],
  );
  return row!;
}
const NOTHING = { balance: "0", held: "0", transactions: 0, payments: 0, transfers: 0 };

/** A role given behind the grant's back (data from before these rules, or a race): the session cache keeps the old row. */
async function makeStaffDirectly(who: SignedInUser, role: "compliance" | "finance") {
  // One request first, so the session (and its user row) is cached as a customer's.
  expect((await call(who, "GET", "/api/auth/user")).json().isAdmin).toBe(false);
  await t.database.query("update users set staff_roles = array[$2]::text[] where id = $1", [
    who.user.id,
    role,
  ]);
}

const totalBalance = async () => (await call(staff.owner, "GET", "/api/admin/stats")).json().totalBalance;

describe("a customer's money never ends up with staff (item 4)", () => {
  it("the issue's scenario: a $1,500 credit waits, the owner grants its recipient compliance, finance approves", async () => {
    const customer = await createApprovedCustomer(t.database);
    const totalBefore = await totalBalance();
    const asked = await call(staff.finance, "POST", "/api/admin/transactions", {
      userId: customer.user.id,
      amount: "1500.00",
      description: "Bonus",
      reason: "Promotion",
    });
    expect(asked.statusCode, asked.body).toBe(202);

    // The owner's grant is refused, by id and by e-mail, and the CLI's staff:grant (the same service) too.
    for (const res of [
      await call(staff.owner, "POST", `/api/admin/staff/${customer.user.id}/grant`, {
        roles: ["compliance"],
      }),
      await call(staff.owner, "POST", "/api/admin/staff", { email: customer.email, roles: ["compliance"] }),
    ]) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({
        customerAccount: true,
        message: STAFF_MANAGEMENT_MESSAGES.customerAccount,
      });
      expect(res.json().reason).toBe("customer_account");
    }
    await expect(grantStaffRoles(t.database.db, customer.email, ["compliance"])).rejects.toMatchObject({
      flags: { customerAccount: true },
    });
    await expect(grantStaffRoles(t.database.db, customer.email, ["compliance"])).rejects.toMatchObject({
      reason: "customer_account",
    });
    expect((await call(customer, "GET", "/api/auth/user")).json().staffRoles).toEqual([]);

    // Had a role reached them anyway, the approval's replay refuses: the money never reaches a staffer.
    await makeStaffDirectly(customer, "compliance");
    const approved = await call(
      staff.finance2,
      "POST",
      `/api/admin/approvals/${asked.json().approval.id}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(409);
    expect(approved.json()).toMatchObject({
      staleApproval: true,
      staffAccount: true,
      message: PAYMENT_MESSAGES.staffCannotReceive,
    });
    expect(approved.json().reason).toBe("stale_approval");
    expect(await moneyOf(customer.user.id)).toEqual(NOTHING);
    expect(await totalBalance()).toBe(totalBefore);
  });

  it("refuses to add a role to staff who hold money or have money on its way (a legacy balance, a pending payment)", async () => {
    const member = await createVerifiedUser(t.database, { staffRoles: ["support"] });
    // Money from before these rules: an open payment addressed to them.
    await t.database.query(
      `insert into incoming_payments (user_id, amount, description, payment_for, from_account, from_routing,
         recipient_name, status) values ($1, 500, 'Old', 'Payment', 'External', '000000000', 'X', 'pending')`,
      [member.user.id],
    );
    const res = await call(staff.owner, "POST", `/api/admin/staff/${member.user.id}/grant`, {
      roles: ["finance"],
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({
      customerAccount: true,
      message: STAFF_MANAGEMENT_MESSAGES.moneyInFlight,
    });
    expect(res.json().reason).toBe("money_in_flight");
    await t.database.query("update incoming_payments set status = 'cancelled' where user_id = $1", [
      member.user.id,
    ]);
    const granted = await call(staff.owner, "POST", `/api/admin/staff/${member.user.id}/grant`, {
      roles: ["finance"],
    });
    expect(granted.statusCode, granted.body).toBe(200);
  });

  it("does not make a banking customer listed in ADMIN_EMAILS an owner at sign-in", async () => {
    const customer = await createApprovedCustomer(t.database, { email: CONFIGURED_OWNER });
    await fundCustomer(t, staff.owner, customer.user.id, "25");
    const cookie = await logIn(t.app, customer.email, customer.password);
    const me = await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });
    expect(me.json()).toMatchObject({ isAdmin: false, staffRoles: [] });
    const [row] = await t.database.query<{ staff_roles: string[] }>(
      "select staff_roles from users where id = $1",
      [customer.user.id],
    );
    expect(row!.staff_roles).toEqual([]);
  });
});

describe("staff never bank, by any route (item 8)", () => {
  it("refuses credits and incoming payments to staff: their own wallet or a colleague's, direct or pending", async () => {
    const before = await moneyOf(staff.finance.user.id);
    const attempts = [
      ["/api/admin/transactions", { userId: staff.finance.user.id, amount: "50.00", description: "Mine" }],
      [
        "/api/admin/transactions",
        { userId: staff.finance2.user.id, amount: "50.00", description: "Yours", status: "pending" },
      ],
      [
        "/api/admin/transactions",
        { userId: staff.finance2.user.id, amount: "5000.00", description: "Big", reason: "x" },
      ],
      [
        "/api/admin/incoming-payments",
        { userId: staff.finance.user.id, amount: "50.00", status: "completed" },
      ],
      ["/api/admin/incoming-payments", { userId: staff.finance2.user.id, amount: "50.00" }],
      [
        "/api/admin/incoming-payments",
        { userId: staff.owner.user.id, amount: "5000.00", status: "completed", reason: "x" },
      ],
    ] as const;
    for (const [url, payload] of attempts) {
      const res = await call(staff.finance, "POST", url, payload);
      expect(res.statusCode, `${url} ${res.body}`).toBe(409);
      expect(res.json()).toMatchObject({ staffAccount: true, message: PAYMENT_MESSAGES.staffCannotReceive });
    }
    const raise = await call(staff.finance, "PUT", `/api/admin/users/${staff.finance2.user.id}/balance`, {
      accountBalance: "100.00",
      reason: "Correction",
    });
    expect(raise.statusCode, raise.body).toBe(409);
    expect(raise.json().staffAccount).toBe(true);
    expect(await moneyOf(staff.finance.user.id)).toEqual(before);
    expect(await moneyOf(staff.finance2.user.id)).toEqual(NOTHING);
    expect(await moneyOf(staff.owner.user.id)).toEqual(NOTHING);
  });

  it("refuses to complete a credit or payment made before its customer became staff", async () => {
    const customer = await createApprovedCustomer(t.database);
    const credit = await call(staff.finance, "POST", "/api/admin/transactions", {
      userId: customer.user.id,
      amount: "40.00",
      description: "Refund",
      status: "pending",
    });
    expect(credit.statusCode, credit.body).toBe(201);
    const payment = await call(staff.finance, "POST", "/api/admin/incoming-payments", {
      userId: customer.user.id,
      amount: "60.00",
    });
    expect(payment.statusCode, payment.body).toBe(201);
    await makeStaffDirectly(customer, "finance");
    for (const url of [
      `/api/admin/transactions/${credit.json().id}`,
      `/api/admin/incoming-payments/${payment.json().payment.id}`,
    ]) {
      const res = await call(staff.finance2, "PUT", url, { status: "completed" });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().staffAccount).toBe(true);
    }
    expect((await moneyOf(customer.user.id)).balance).toBe("0");
  });

  it("refuses a staff member's identity check, document upload, recipient and transfer", async () => {
    const member = staff.finance2;
    const { response: created } = await applyWithLicence(t.app, member.cookie, {
      accountType: "personal",
      firstName: "Fin",
      lastName: "Ance",
      dateOfBirth: "1985-12-10",
      street: "1 Main St",
      city: "New York",
      state: "NY",
      zipCode: "10001",
      ssn: "321-54-9876",
    });
    expect(created.statusCode, created.body).toBe(403);
    expect(created.json()).toMatchObject({
      staffAccount: true,
      message: STAFF_MANAGEMENT_MESSAGES.staffCannotBank,
    });
    const upload = await call(member, "POST", "/api/kyc/upload-document", {
      documentType: "drivingLicenseFront",
      objectPath: "/objects/uploads/x",
    });
    expect(upload.statusCode, upload.body).toBe(403);
    expect(upload.json().staffAccount).toBe(true);
    const recipient = await call(member, "POST", "/api/recipients", {
      name: "Sam Lee",
      address: "0x52908400098527886E0F7030069857D2E4169EE7",
    });
    expect(recipient.statusCode).toBe(403);
    expect(recipient.json().customersOnly).toBe(true);
    const transfer = await requestTransfer(t.app, member, { amount: "10" });
    expect(transfer.statusCode).toBe(403);
    expect(transfer.json()).toMatchObject({
      staffAccount: true,
      message: TRANSFER_MESSAGES.adminCannotTransfer,
    });
    const [{ n }] = await t.database.query<{ n: number }>(
      "select (select count(*) from kyc_applications where user_id = $1) + (select count(*) from saved_recipients where user_id = $1) as n",
      [member.user.id],
    );
    expect(Number(n)).toBe(0);
    expect(await moneyOf(member.user.id)).toEqual(NOTHING);
  });

  it("refuses the transfer in the same transaction when the role arrived after the session was read", async () => {
    const customer = await createApprovedCustomer(t.database);
    await fundCustomer(t, staff.owner, customer.user.id, "100");
    await makeStaffDirectly(customer, "finance");
    // The session still says customer, so only create_transfer_request's own check (under the wallet lock) refuses.
    const res = await requestTransfer(t.app, customer, { amount: "40" }, "staff-race-key-0001");
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ staffAccount: true, message: TRANSFER_MESSAGES.adminCannotTransfer });
    expect(await moneyOf(customer.user.id)).toMatchObject({ balance: "10000", held: "0", transfers: 0 });
  });

  it("an ex-staffer has nothing from their staff time to send: nothing could arrive, and the send-money gate is closed", async () => {
    const member = await createVerifiedUser(t.database, { staffRoles: ["support"] });
    const credit = await call(staff.finance, "POST", "/api/admin/transactions", {
      userId: member.user.id,
      amount: "20.00",
      description: "Thanks",
    });
    expect(credit.statusCode).toBe(409);
    const revoked = await call(staff.owner, "POST", `/api/admin/staff/${member.user.id}/revoke`, {
      roles: ["support"],
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(await moneyOf(member.user.id)).toEqual(NOTHING);
    const transfer = await requestTransfer(t.app, member, { amount: "1" });
    expect(transfer.statusCode).toBe(403);
    expect(transfer.json().accountSetupIncomplete).toBe(true);
  });
});
