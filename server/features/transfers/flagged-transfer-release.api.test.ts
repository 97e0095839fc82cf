import { describe, expect, it } from "vitest";
import { APPROVAL_MESSAGES } from "@/contract/approvals";
import { approveAsSecond, createFundedCustomer, ETH_ADDRESS, expectLedgerClean } from "@/tests/support/money";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser } from "@/tests/support/users";

// After "This wasn't me", one staff member could send the very transfer the customer reported.
const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100" }));
const admin = setUpAdminUser(t);

const TRANSFER = {
  amount: "25.00",
  recipientName: "Grace Hopper",
  purpose: "Rent",
  paymentMethod: "crypto",
  cryptoAddress: ETH_ADDRESS,
};

const put = (cookie: string, id: string, payload: object) =>
  t.app.inject({ method: "PUT", url: `/api/admin/transfer-requests/${id}`, headers: { cookie }, payload });

async function stateOf(transferId: string) {
  const [row] = await t.database.query<{ status: string; open_holds: number; captures: number }>(
    `select r.status,
            (select count(*)::int from holds h where h.id = r.hold_id and h.status = 'open') as open_holds,
            (select count(*)::int from journal_entries e where e.kind = 'transfer_capture' and e.reference_id = r.id::text) as captures
     from transfer_requests r where r.id = $1`,
    [transferId],
  );
  return row!;
}

/** A customer who requested two transfers and then reported one with "This wasn't me": both are flagged. */
async function reportedTransfers() {
  const customer = await createFundedCustomer(t, admin, "500.00");
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const sent = await t.app.inject({
      method: "POST",
      url: "/api/transfer/request",
      headers: { cookie: customer.cookie },
      payload: TRANSFER,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    ids.push(sent.json().transferRequest.id);
  }
  const mail = await sink.waitForMail(customer.email, (m) => m.subject.includes("requested"));
  const token = /\/this-wasnt-me#token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
  const frozen = await t.app.inject({ method: "POST", url: "/api/account/freeze", payload: { token } });
  expect(frozen.statusCode, frozen.body).toBe(200);
  return { customer, ids };
}

describe("a reported transfer needs a second staff member to leave", () => {
  it("refuses one person completing it; a second finance member's approval sends it exactly once", async () => {
    const { ids } = await reportedTransfers();
    const [reported] = ids as [string];

    // The exact scenario of the issue: one click, status completed. No reason: 400, nothing moves.
    const bare = await put(admin.cookie, reported, { status: "completed" });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ reasonRequired: true, field: "reason" });
    expect(await stateOf(reported)).toEqual({ status: "pending", open_holds: 1, captures: 0 });

    const asked = await put(admin.cookie, reported, {
      status: "completed",
      reason: "Customer confirmed on the phone",
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toMatchObject({
      pendingApproval: true,
      approval: { kind: "transfer_release", status: "pending", amountCents: 2500 },
    });
    expect(asked.json().approval.summary).toBe("Move the flagged transfer of $25.00 to completed");
    expect(await stateOf(reported)).toEqual({ status: "pending", open_holds: 1, captures: 0 });
    // The quick Approve and "processing" are releases too; one request per transfer waits at a time.
    const quick = await put(admin.cookie, reported, { status: "approved", reason: "again" });
    expect(quick.statusCode).toBe(409);
    expect(quick.json()).toMatchObject({ approvalPending: true });

    // The maker cannot check their own request.
    const self = await t.app.inject({
      method: "POST",
      url: `/api/admin/approvals/${asked.json().approval.id}/approve`,
      headers: { cookie: admin.cookie },
      payload: {},
    });
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({ selfApproval: true, message: APPROVAL_MESSAGES.selfApproval });
    expect(await stateOf(reported)).toEqual({ status: "pending", open_holds: 1, captures: 0 });

    // A second finance member approves: it completes once.
    const approved = await approveAsSecond(t, asked);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().result).toMatchObject({ id: reported, status: "completed" });
    expect(await stateOf(reported)).toEqual({ status: "completed", open_holds: 0, captures: 1 });
    const twice = await approveAsSecond(t, asked);
    expect(twice.statusCode).toBe(409);
    expect(await stateOf(reported)).toEqual({ status: "completed", open_holds: 0, captures: 1 });
    await expectLedgerClean(t.database);
  });

  it("lets one person cancel a reported transfer, and holds processing for a second person too", async () => {
    const { ids } = await reportedTransfers();
    const [first, second] = ids as [string, string];
    const processing = await put(admin.cookie, first, { status: "processing", reason: "Checked" });
    expect(processing.statusCode).toBe(202);
    expect(await stateOf(first)).toEqual({ status: "pending", open_holds: 1, captures: 0 });

    const cancelled = await put(admin.cookie, second, { status: "cancelled" });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await stateOf(second)).toEqual({ status: "cancelled", open_holds: 0, captures: 0 });
    const rejected = await put(admin.cookie, first, { status: "rejected" });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await stateOf(first)).toEqual({ status: "cancelled", open_holds: 0, captures: 0 });
    // The waiting approval is now stale: approving it moves nothing.
    const stale = await approveAsSecond(t, processing);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ staleApproval: true });
    expect(await stateOf(first)).toEqual({ status: "cancelled", open_holds: 0, captures: 0 });
    await expectLedgerClean(t.database);
  });

  it("still settles an ordinary transfer in one click", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    const sent = await t.app.inject({
      method: "POST",
      url: "/api/transfer/request",
      headers: { cookie: customer.cookie },
      payload: TRANSFER,
    });
    const id = sent.json().transferRequest.id as string;
    const done = await put(admin.cookie, id, { status: "completed" });
    expect(done.statusCode, done.body).toBe(200);
    expect(await stateOf(id)).toEqual({ status: "completed", open_holds: 0, captures: 1 });
    await expectLedgerClean(t.database);
  });
});
