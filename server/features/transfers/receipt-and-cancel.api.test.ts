import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { transferReference } from "@/contract/transfers";
import { auditLog, holds, journalEntries, postings, transactions } from "@/server/db/schema";
import {
  createFundedCustomer,
  ETH_ADDRESS,
  expectLedgerClean,
  expectLedgerCleanAfterEach,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

const fundedCustomer = (amount = "1000.00") => createFundedCustomer(t, admin, amount);

async function send(who: SignedInUser, amount: string): Promise<string> {
  const res = await requestTransfer(t.app, who, { amount, purpose: "Rent" });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().transferRequest.id;
}

const receipt = (who: SignedInUser | null, id: string) =>
  t.app.inject({ method: "GET", url: `/api/transfers/${id}`, headers: who ? { cookie: who.cookie } : {} });
const cancel = (who: SignedInUser | null, id: string) =>
  t.app.inject({
    method: "POST",
    url: `/api/transfers/${id}/cancel`,
    headers: who ? { cookie: who.cookie } : {},
  });
const settle = (id: string, status: string) =>
  t.app.inject({
    method: "PUT",
    url: `/api/admin/transfer-requests/${id}`,
    headers: { cookie: admin.cookie },
    payload: { status },
  });
const summary = async (who: SignedInUser) =>
  (
    await t.app.inject({ method: "GET", url: "/api/account/summary", headers: { cookie: who.cookie } })
  ).json();

describe("a transfer's receipt", () => {
  it("shows the sender the amount, fee, net, address, reference and a timeline that matches the ledger", async () => {
    const customer = await fundedCustomer();
    const id = await send(customer, "250.00");

    const pending = await receipt(customer, id);
    expect(pending.statusCode, pending.body).toBe(200);
    const body = pending.json();
    expect(body).toMatchObject({
      id,
      reference: transferReference(id),
      status: "pending",
      amountCents: 25_000,
      feeCents: 500,
      netAmountCents: 24_500,
      recipientName: "Sam Lee",
      cryptoAddress: ETH_ADDRESS,
      canCancel: true,
    });
    expect(body.reference).toMatch(/^[0-9A-F]{8}$/);
    expect(body.timeline.map((s: { status: string }) => s.status)).toEqual([
      "requested",
      "processing",
      "completed",
    ]);
    expect(body.timeline[0].at).toBe(body.createdAt);
    expect(body.timeline[1].at).toBeNull();
    // The hold on the wallet is exactly the receipt's amount.
    const [hold] = await t.database.db.select().from(holds).where(eq(holds.referenceId, id));
    expect(hold).toMatchObject({ amount: 25_000, status: "open" });

    expect((await settle(id, "processing")).statusCode).toBe(200);
    const reviewed = (await receipt(customer, id)).json();
    expect(reviewed.timeline[1].at).not.toBeNull();
    expect(reviewed.canCancel).toBe(false);

    expect((await settle(id, "completed")).statusCode).toBe(200);
    const done = (await receipt(customer, id)).json();
    expect(done.status).toBe("completed");
    expect(done.timeline.map((s: { status: string }) => s.status)).toEqual([
      "requested",
      "processing",
      "completed",
    ]);
    expect(done.timeline.every((s: { at: string | null }) => s.at !== null)).toBe(true);
    expect(Date.parse(done.timeline[2].at)).toBeGreaterThanOrEqual(Date.parse(done.timeline[1].at));
    // The capture's postings are the receipt's figures: the wallet pays the amount, the fee and net split it.
    const [entry] = await t.database.db
      .select()
      .from(journalEntries)
      .where(and(eq(journalEntries.referenceId, id), eq(journalEntries.kind, "transfer_capture")));
    const lines = await t.database.db.select().from(postings).where(eq(postings.entryId, entry!.id));
    const amounts = lines.map((l) => l.amount).sort((x, y) => x - y);
    expect(amounts).toEqual([-done.amountCents, done.feeCents, done.netAmountCents].sort((x, y) => x - y));
  });

  it("answers 404 to another customer, an admin, a missing id and a malformed one, without saying which", async () => {
    const owner = await fundedCustomer();
    const other = await fundedCustomer();
    const id = await send(owner, "20.00");
    const answers = [
      await receipt(other, id),
      await receipt(admin, id),
      await receipt(owner, randomUUID()),
      await receipt(owner, "not-an-id"),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe("Transfer not found");
      expect(res.body).not.toContain(id);
    }
    expect((await receipt(null, id)).statusCode).toBe(401);
  });

  it("links the sender's debit in their history to its transfer", async () => {
    const customer = await fundedCustomer();
    const id = await send(customer, "30.00");
    const res = await t.app.inject({
      method: "GET",
      url: "/api/transactions/recent",
      headers: { cookie: customer.cookie },
    });
    const rows = res.json() as { type: string; transferRequestId: string | null }[];
    expect(rows.find((r) => r.type === "debit")?.transferRequestId).toBe(id);
    expect(rows.filter((r) => r.type !== "debit").every((r) => r.transferRequestId === null)).toBe(true);
  });
});

describe("cancelling a pending transfer", () => {
  it("releases the hold once, cancels the debit and audits the customer as the actor", async () => {
    const customer = await fundedCustomer();
    const id = await send(customer, "100.00");
    expect((await summary(customer)).availableBalance).toBe("$900.00");

    const res = await cancel(customer, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().receipt).toMatchObject({ id, status: "cancelled", canCancel: false });
    expect(res.json().receipt.timeline.map((s: { status: string }) => s.status)).toEqual([
      "requested",
      "cancelled",
    ]);
    expect((await summary(customer)).availableBalance).toBe("$1,000.00");

    const [hold] = await t.database.db.select().from(holds).where(eq(holds.referenceId, id));
    expect(hold!.status).toBe("released");
    const [debit] = await t.database.db.select().from(transactions).where(eq(transactions.sourceId, id));
    expect(debit!.status).toBe("cancelled");
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: customer.user.id, action: "transfer.cancel_by_customer" });

    const again = await cancel(customer, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This transfer is already cancelled and can no longer be cancelled");
  });

  it("refuses with 409 once staff moved it, and leaves the hold to them", async () => {
    const customer = await fundedCustomer();
    for (const status of ["processing", "completed", "failed", "cancelled"]) {
      const id = await send(customer, "10.00");
      expect((await settle(id, status)).statusCode).toBe(200);
      const res = await cancel(customer, id);
      expect(res.statusCode, status).toBe(409);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.json().message).toMatch(/can no longer be cancelled/);
    }
    // The processing one still holds its $10: the customer's refusal released nothing.
    expect((await summary(customer)).availableBalance).toBe("$980.00");
  });

  it("answers 404 to another customer and the admin, writing nothing", async () => {
    const owner = await fundedCustomer();
    const other = await fundedCustomer();
    const id = await send(owner, "40.00");
    for (const who of [other, admin]) {
      const res = await cancel(who, id);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe("Transfer not found");
    }
    expect((await cancel(owner, "../../admin")).statusCode).toBe(404);
    expect((await cancel(null, id)).statusCode).toBe(401);
    expect((await receipt(owner, id)).json().status).toBe("pending");
    expect((await summary(owner)).availableBalance).toBe("$960.00");
  });

  it("lets exactly one of many racing cancels win", async () => {
    const customer = await fundedCustomer();
    const id = await send(customer, "75.00");
    const results = await Promise.all(Array.from({ length: 6 }, () => cancel(customer, id)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409]);
    const released = await t.database.db.select().from(holds).where(eq(holds.referenceId, id));
    expect(released.map((h) => h.status)).toEqual(["released"]);
    expect((await summary(customer)).availableBalance).toBe("$1,000.00");
  });

  it("lets exactly one of a cancel and an admin completion win", async () => {
    const customer = await fundedCustomer();
    for (let round = 0; round < 4; round++) {
      const id = await send(customer, "10.00");
      const [byCustomer, byAdmin] = await Promise.all([cancel(customer, id), settle(id, "completed")]);
      const won = [byCustomer.statusCode, byAdmin.statusCode];
      expect(won.filter((c) => c === 200)).toHaveLength(1);
      expect(won.filter((c) => c === 409)).toHaveLength(1);
      const final = (await receipt(customer, id)).json().status;
      expect(final).toBe(byCustomer.statusCode === 200 ? "cancelled" : "completed");
      const [hold] = await t.database.db.select().from(holds).where(eq(holds.referenceId, id));
      expect(hold!.status).toBe(final === "cancelled" ? "released" : "captured");
      await expectLedgerClean(t.database);
    }
  });
});
