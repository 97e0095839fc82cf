import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { COMPLIANCE_MESSAGES, MAX_COMMENT_CHARS, REPORT_DEADLINE_DAYS } from "@/contract/compliance";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { auditLog, complianceHits, users } from "@/server/db/schema";
import { makePng, PDF, uploadFile } from "@/tests/support/files";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
  fundCustomer,
  requestTransfer,
} from "@/tests/support/money";
import { LISTED_ETH, listFiles, uploadBody } from "@/tests/support/ofac-files";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

let maker: SignedInUser;
let checker: SignedInUser;
let support: SignedInUser;
let finance: SignedInUser;
beforeAll(async () => {
  maker = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  checker = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  support = await createVerifiedUser(t.database, { staffRoles: ["support"] });
  finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
  const loaded = await call("POST", "/api/admin/compliance/lists", maker, uploadBody(listFiles()));
  expect(loaded.statusCode, loaded.body).toBe(200);
});

const call = (
  method: "GET" | "POST" | "PUT",
  url: string,
  who: SignedInUser | null,
  payload?: object | string,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { ...headers, ...(who ? { cookie: who.cookie } : {}) },
    ...(payload === undefined ? {} : { payload }),
  });

const CASES = "/api/admin/compliance/cases";

/** A funded customer whose transfer to a listed address waits under review: the case it opened. */
async function customerWithCase(amount = "100.00") {
  const customer = await createFundedCustomer(t, admin, "500.00");
  const res = await requestTransfer(t.app, customer, { amount, cryptoAddress: LISTED_ETH });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().message).toBe(TRANSFER_MESSAGES.underReview);
  const list = await call("GET", `${CASES}?status=open&limit=200`, maker);
  const found = list
    .json()
    .items.find((c: { customer: { id: string } | null }) => c.customer?.id === customer.user.id);
  expect(found).toBeDefined();
  return { customer, caseId: found.id as string, transferId: res.json().transferRequest.id as string };
}

async function propose(
  caseId: string,
  decision: string,
  who = maker,
  note = `Proposed ${decision} after review`,
) {
  const res = await call("POST", `${CASES}/${caseId}/decisions`, who, { decision, note });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().case.decisions.find((d: { status: string }) => d.status === "pending").id as string;
}

/** A checker's verdict; a rejection says why, an approval may (decision 032). */
const check = (caseId: string, decisionId: string, verdict: "approve" | "reject", who: SignedInUser) =>
  call(
    "POST",
    `${CASES}/${caseId}/decisions/${decisionId}/${verdict}`,
    who,
    verdict === "reject" ? { note: "The evidence does not support it yet" } : {},
  );

async function auditActions(caseId: string) {
  const rows = await t.database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "compliance_case"), eq(auditLog.targetId, caseId)));
  return rows.map((r) => r.action);
}

describe("a case from hit to cleared, with two compliance members", () => {
  it("groups, assigns, comments, links, decides with maker-checker, releases the transfer and tells the customer only that the account was reviewed", async () => {
    const { customer, caseId, transferId } = await customerWithCase();

    const detail = await call("GET", `${CASES}/${caseId}`, maker);
    expect(detail.statusCode, detail.body).toBe(200);
    const [hit] = await t.database.db.select().from(complianceHits).where(eq(complianceHits.caseId, caseId));
    // The clock: 30 days from the first detection (the first hit).
    expect(new Date(detail.json().reportDueAt).getTime() - hit!.createdAt.getTime()).toBe(
      REPORT_DEADLINE_DAYS * 24 * 60 * 60 * 1000,
    );
    expect(detail.json()).toMatchObject({
      status: "open",
      pendingDecision: null,
      assignee: null,
      heldTransfers: 1,
    });
    // The held transfers themselves, not only their count (docs/banking.md "Sanctions screening").
    expect(detail.json().transfers).toEqual([
      expect.objectContaining({
        id: transferId,
        amountCents: 10_000,
        formattedAmount: "$100.00",
        recipientName: "Sam Lee",
        cryptoAddress: LISTED_ETH,
        status: "pending",
      }),
    ]);

    // A second hit on the same customer joins the same case.
    const second = await requestTransfer(t.app, customer, { amount: "5.00", cryptoAddress: LISTED_ETH });
    expect(second.statusCode).toBe(201);
    const grouped = await call("GET", `${CASES}/${caseId}`, maker);
    expect(grouped.json().hitCount).toBe(2);

    // Assign: to a compliance member, never to support.
    const toSupport = await call("PUT", `${CASES}/${caseId}/assignee`, maker, {
      assigneeId: support.user.id,
    });
    expect(toSupport.statusCode).toBe(400);
    expect(toSupport.json().message).toBe(COMPLIANCE_MESSAGES.assigneeNotCompliance);
    const assigned = await call("PUT", `${CASES}/${caseId}/assignee`, maker, { assigneeId: checker.user.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().case.assignee).toEqual({ id: checker.user.id, email: checker.user.email });

    const comment = await call("POST", `${CASES}/${caseId}/comments`, maker, {
      body: "Customer says the address is an exchange deposit address.",
    });
    expect(comment.statusCode, comment.body).toBe(200);
    expect(comment.json().case.comments[0]).toMatchObject({
      body: "Customer says the address is an exchange deposit address.",
      author: { id: maker.user.id },
    });

    const other = await createVerifiedUser(t.database);
    const linked = await call("POST", `${CASES}/${caseId}/links`, maker, {
      customer: other.user.email.toUpperCase(),
      note: "Same device fingerprint",
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().case.links[0].customer.id).toBe(other.user.id);
    const twice = await call("POST", `${CASES}/${caseId}/links`, maker, {
      customer: other.user.id,
      note: "again",
    });
    expect(twice.statusCode).toBe(409);
    const self = await call("POST", `${CASES}/${caseId}/links`, maker, {
      customer: customer.user.id,
      note: "self link",
    });
    expect(self.statusCode).toBe(400);
    const staffLink = await call("POST", `${CASES}/${caseId}/links`, maker, {
      customer: support.user.id,
      note: "staff",
    });
    expect(staffLink.statusCode).toBe(404);

    // Maker-checker: the maker cannot check, a second proposal waits, finance and support cannot at all.
    const decisionId = await propose(caseId, "clear");
    const listed = await call("GET", `${CASES}?status=open&limit=200`, maker);
    expect(listed.json().items.find((c: { id: string }) => c.id === caseId).pendingDecision).toBe("clear");
    const selfCheck = await check(caseId, decisionId, "approve", maker);
    expect(selfCheck.statusCode).toBe(403);
    expect(selfCheck.json()).toMatchObject({ selfApproval: true, message: COMPLIANCE_MESSAGES.selfCheck });
    const secondProposal = await call("POST", `${CASES}/${caseId}/decisions`, checker, {
      decision: "file",
      note: "I would file instead",
    });
    expect(secondProposal.statusCode).toBe(409);
    expect(secondProposal.json().approvalPending).toBe(true);
    for (const who of [support, finance]) {
      expect((await check(caseId, decisionId, "approve", who)).statusCode).toBe(403);
    }
    // Still held until the checker approves.
    const early = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "approved",
    });
    expect(early.json().complianceHold).toBe(true);

    const approved = await check(caseId, decisionId, "approve", checker);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().case).toMatchObject({ status: "cleared", pendingDecision: null });
    expect(approved.json().case.decisions[0]).toMatchObject({
      status: "approved",
      maker: { id: maker.user.id },
      checker: { id: checker.user.id },
    });
    // A replayed approval (or reject) changes nothing.
    for (const verdict of ["approve", "reject"] as const) {
      const replay = await check(caseId, decisionId, verdict, checker);
      expect(replay.statusCode).toBe(409);
      expect(replay.json().approvalDecided).toBe(true);
    }

    const released = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "approved",
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().status).toBe("completed");

    expect(await auditActions(caseId)).toEqual(
      expect.arrayContaining([
        "compliance.case_assigned",
        "compliance.case_comment",
        "compliance.case_link",
        "compliance.case_decision_proposed",
        "compliance.account_reviewed",
      ]),
    );
    const access = await call("GET", "/api/account/data-access", customer);
    const descriptions = access.json().items.map((e: { description: string }) => e.description);
    expect(descriptions.filter((d: string) => d === "Reviewed your account")).toHaveLength(1);
    expect(JSON.stringify(access.json())).not.toMatch(
      /exchange|clear|fingerprint|comment|assign|case|sanction/i,
    );
  });

  it("lets a checker reject: the case stays open and a new decision may be proposed", async () => {
    const { caseId } = await customerWithCase();
    const first = await propose(caseId, "clear");
    // A rejection without its reason is refused, and decides nothing.
    for (const body of [{}, { note: "  " }, { note: "no" }]) {
      const bare = await call("POST", `${CASES}/${caseId}/decisions/${first}/reject`, checker, body);
      expect(bare.statusCode, bare.body).toBe(400);
      expect(bare.json()).toMatchObject({
        message: COMPLIANCE_MESSAGES.checkerReasonRequired,
        reasonRequired: true,
        field: "note",
      });
    }
    expect((await call("GET", `${CASES}/${caseId}`, maker)).json().pendingDecision).toBe("clear");
    const rejected = await check(caseId, first, "reject", checker);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().case).toMatchObject({ status: "open", pendingDecision: null });
    expect(rejected.json().message).toBe(COMPLIANCE_MESSAGES.decisionRejected);
    expect(rejected.json().case.decisions[0].checkerNote).toBe("The evidence does not support it yet");
    const next = await propose(caseId, "file", checker);
    expect((await check(caseId, next, "approve", maker)).json().case.status).toBe("filed");
  });

  it("decides once when two checkers approve at the same moment", async () => {
    const third = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
    const { caseId } = await customerWithCase();
    const id = await propose(caseId, "clear");
    const results = await Promise.all([
      check(caseId, id, "approve", checker),
      check(caseId, id, "approve", third),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const decided = await t.database.query(
      "select count(*)::int as n from audit_log where action = 'compliance.account_reviewed' and target_id = $1",
      [caseId],
    );
    expect(decided[0]!.n).toBe(1);
  });
});

describe("restrict and freeze", () => {
  it("restrict closes the send-money gate (can_send_money) and keeps held transfers held", async () => {
    const { customer, caseId, transferId } = await customerWithCase();
    const id = await propose(caseId, "restrict");
    expect((await check(caseId, id, "approve", checker)).json().case.status).toBe("restricted");
    const summary = await call("GET", "/api/account/summary", customer);
    expect(summary.json().canSendMoney).toBe(false);
    const refused = await requestTransfer(t.app, customer, { amount: "10.00" });
    expect(refused.statusCode).toBe(403);
    expect(JSON.stringify(refused.json())).not.toMatch(/compliance|sanction|restrict/i);
    const release = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "approved",
    });
    expect(release.json().complianceHold).toBe(true);
    // Nor is it given back by finance: returning it is the case's reject decision (decision 048).
    const cancel = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "cancelled",
    });
    expect(cancel.statusCode, cancel.body).toBe(409);
    expect(cancel.json()).toMatchObject({
      complianceHold: true,
      message: COMPLIANCE_MESSAGES.complianceHoldNoReturn,
    });
  });

  it("freeze uses the account freeze: frozen_at set, pending transfers flagged, audited, lifted by the unfreeze path", async () => {
    const { customer, caseId } = await customerWithCase();
    const id = await propose(caseId, "freeze");
    expect((await check(caseId, id, "approve", checker)).json().case.status).toBe("frozen");
    const [row] = await t.database.db
      .select({ frozenAt: users.frozenAt })
      .from(users)
      .where(eq(users.id, customer.user.id));
    expect(row!.frozenAt).not.toBeNull();
    const flagged = await t.database.query(
      "select count(*)::int as n from transfer_requests where user_id = $1 and flagged_at is not null",
      [customer.user.id],
    );
    expect(flagged[0]!.n).toBe(1);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.freeze"), eq(auditLog.targetId, customer.user.id)));
    expect(audit).toMatchObject({ actorId: checker.user.id });
    const unfreeze = await call("POST", `/api/admin/users/${customer.user.id}/unfreeze`, maker, {
      reason: "Spoke to the customer",
    });
    expect(unfreeze.statusCode, unfreeze.body).toBe(202);
  });
});

describe("lifting a restriction (decision 039)", () => {
  async function restrictedCustomer() {
    const found = await customerWithCase();
    const id = await propose(found.caseId, "restrict");
    expect((await check(found.caseId, id, "approve", checker)).json().case.status).toBe("restricted");
    expect((await call("GET", "/api/account/summary", found.customer)).json().canSendMoney).toBe(false);
    return found;
  }

  it("needs a second member, reopens the send-money gate, lets the held transfer go and is audited", async () => {
    const { customer, caseId, transferId } = await restrictedCustomer();
    const id = await propose(caseId, "lift", maker, "Customer documented the address as an exchange's");
    const listed = await call("GET", `${CASES}?status=restricted&limit=200`, maker);
    expect(listed.json().items.find((c: { id: string }) => c.id === caseId)).toMatchObject({
      pendingDecision: "lift",
    });
    // Not in force until a second member approves: still restricted, and the maker cannot approve it.
    expect((await call("GET", "/api/account/summary", customer)).json().canSendMoney).toBe(false);
    const self = await check(caseId, id, "approve", maker);
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(COMPLIANCE_MESSAGES.selfCheck);
    // One proposal waits at a time.
    const second = await call("POST", `${CASES}/${caseId}/decisions`, checker, {
      decision: "lift",
      note: "again",
    });
    expect(second.statusCode).toBe(409);

    const approved = await check(caseId, id, "approve", checker);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().case).toMatchObject({ status: "cleared", pendingDecision: null });
    expect((await call("GET", "/api/account/summary", customer)).json().canSendMoney).toBe(true);
    const release = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "approved",
    });
    expect(release.statusCode, release.body).toBe(200);
    expect(release.json().complianceHold).toBeUndefined();

    // Replayed: 409, nothing changes. A cleared case takes no second lift.
    const replay = await check(caseId, id, "approve", checker);
    expect(replay.statusCode).toBe(409);
    const again = await call("POST", `${CASES}/${caseId}/decisions`, maker, {
      decision: "lift",
      note: "once more",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(COMPLIANCE_MESSAGES.caseDecided);

    const rows = await t.database.db
      .select({
        action: auditLog.action,
        actorId: auditLog.actorId,
        before: auditLog.before,
        after: auditLog.after,
      })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "compliance_case"), eq(auditLog.targetId, caseId)));
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: "compliance.case_decision_proposed",
          actorId: maker.user.id,
          after: expect.objectContaining({ decision: "lift" }),
        }),
        expect.objectContaining({
          action: "compliance.account_reviewed",
          actorId: checker.user.id,
          before: { status: "restricted" },
          after: expect.objectContaining({
            status: "cleared",
            makerId: maker.user.id,
            checkerId: checker.user.id,
          }),
        }),
      ]),
    );
    // The customer's data-access view says only that the account was reviewed.
    const access = await call("GET", "/api/account/data-access", customer);
    expect(access.statusCode, access.body).toBe(200);
    const descriptions = access.json().items.map((i: { description: string }) => i.description);
    expect(descriptions.filter((d: string) => d === "Reviewed your account")).toHaveLength(2);
    expect(access.body).not.toMatch(/lift|restrict|sanction|exchange/i);
  });

  it("is refused on an open case, on another decided one, by support and finance, and with bad input", async () => {
    const open = await customerWithCase();
    const onOpen = await call("POST", `${CASES}/${open.caseId}/decisions`, maker, {
      decision: "lift",
      note: "Lift it please",
    });
    expect(onOpen.statusCode).toBe(409);
    expect(onOpen.json().message).toBe(COMPLIANCE_MESSAGES.liftNotRestricted);

    const cleared = await customerWithCase();
    const clearId = await propose(cleared.caseId, "clear");
    expect((await check(cleared.caseId, clearId, "approve", checker)).statusCode).toBe(200);
    const onCleared = await call("POST", `${CASES}/${cleared.caseId}/decisions`, maker, {
      decision: "lift",
      note: "Lift it please",
    });
    expect(onCleared.statusCode).toBe(409);

    const { caseId, customer } = await restrictedCustomer();
    for (const who of [support, finance, customer]) {
      const res = await call("POST", `${CASES}/${caseId}/decisions`, who, {
        decision: "lift",
        note: "lift it",
      });
      expect(res.statusCode).toBe(403);
    }
    for (const body of [
      { decision: "lift" },
      { decision: "lift", note: "x" },
      { decision: "lift", note: 42 },
      { decision: "unrestrict", note: "lift it" },
      { decision: ["lift"], note: "lift it" },
      { decision: "lift", note: "y".repeat(2001) },
    ]) {
      const res = await call("POST", `${CASES}/${caseId}/decisions`, maker, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const id = await propose(caseId, "lift");
    // Another case's id with this decision, support or finance approving: refused, still restricted.
    expect((await check(open.caseId, id, "approve", checker)).statusCode).toBe(404);
    for (const who of [support, finance])
      expect((await check(caseId, id, "approve", who)).statusCode).toBe(403);
    const detail = await call("GET", `${CASES}/${caseId}`, maker);
    expect(detail.json()).toMatchObject({ status: "restricted", pendingDecision: "lift" });

    // Two checkers at the same moment: one lift.
    const third = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
    const results = await Promise.all([
      check(caseId, id, "approve", checker),
      check(caseId, id, "approve", third),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const reviewed = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, caseId), eq(auditLog.action, "compliance.account_reviewed")));
    expect(reviewed).toHaveLength(2); // the restriction, then the one lift
  });

  it("a rejected lift leaves the customer restricted and lets a new one be proposed", async () => {
    const { caseId, customer } = await restrictedCustomer();
    const id = await propose(caseId, "lift");
    expect((await check(caseId, id, "reject", checker)).json().case).toMatchObject({ status: "restricted" });
    expect((await call("GET", "/api/account/summary", customer)).json().canSendMoney).toBe(false);
    await propose(caseId, "lift");
  });
});

describe("the SAR draft", () => {
  it("files a report whose JSON and PDF carry the subject, amounts, dates, evidence and narrative", async () => {
    const { customer, caseId, transferId } = await customerWithCase("123.45");
    const narrative =
      "The customer sent $123.45 to an address on OFAC's SDN list (Digital Currency Address).";
    const saved = await call("PUT", `${CASES}/${caseId}/narrative`, maker, { narrative });
    expect(saved.statusCode, saved.body).toBe(200);
    const id = await propose(caseId, "file");
    expect((await check(caseId, id, "approve", checker)).json().case.status).toBe("filed");
    const afterFiling = await call("PUT", `${CASES}/${caseId}/narrative`, maker, { narrative: "changed" });
    expect(afterFiling.statusCode).toBe(409);

    const json = await call("GET", `${CASES}/${caseId}/report.json`, maker);
    expect(json.statusCode, json.body).toBe(200);
    const draft = json.json();
    expect(draft).toMatchObject({
      caseId,
      filed: true,
      subject: { id: customer.user.id, email: customer.user.email },
      activity: { totalAmount: "123.45", transfers: [{ id: transferId, amount: "123.45" }] },
      narrative,
      decision: { maker: maker.user.email, checker: checker.user.email },
    });
    expect(draft.evidence[0]).toMatchObject({ kind: "sanctions_hit", screeningPoint: "transfer" });
    expect(draft.evidence[0].matched).toContain("PETROV");

    const pdf = await call("GET", `${CASES}/${caseId}/report.pdf`, maker);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sar-"));
    const file = path.join(dir, "sar.pdf");
    fs.writeFileSync(file, pdf.rawPayload);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("Suspicious activity report");
    expect(text).toContain("$123.45");
    expect(text).toContain("PETROV");
    expect(text).toContain("SDN list (Digital Currency Address)");
    expect(text).toContain(customer.user.email);
    // Staff's confidential report, not a customer's document: no "keep this for your records" footer.
    expect(text).not.toContain("Keep this document for your records");
    expect(text).toContain("Confidential: never disclose to the subject");
    if (process.env.SAR_PNG_DIR) {
      execFileSync("pdftoppm", [
        "-png",
        "-r",
        "80",
        "-f",
        "1",
        "-l",
        "1",
        file,
        path.join(process.env.SAR_PNG_DIR, "sar"),
      ]);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    expect(await auditActions(caseId)).toContain("compliance.case_report_exported");
  });

  it("carries the monitoring alerts' evidence and the money they saw, in the JSON and the PDF", async () => {
    // Three credits just under APPROVAL_THRESHOLD within a week: a structuring alert opens the case.
    const customer = await createApprovedCustomer(t.database);
    for (const amount of ["999.99", "900.00", "950.00"])
      await fundCustomer(t, admin, customer.user.id, amount);
    const list = await call("GET", `${CASES}?status=open&limit=200`, maker);
    const opened = list
      .json()
      .items.find((c: { customer: { id: string } | null }) => c.customer?.id === customer.user.id);
    expect(opened).toMatchObject({ hitCount: 0 });
    // Then a transfer to a listed address: a sanctions hit joins the same case.
    const transfer = await requestTransfer(t.app, customer, { amount: "20.00", cryptoAddress: LISTED_ETH });
    expect(transfer.statusCode, transfer.body).toBe(201);
    const id = await propose(opened.id, "file");
    expect((await check(opened.id, id, "approve", checker)).json().case.status).toBe("filed");

    const json = await call("GET", `${CASES}/${opened.id}/report.json`, maker);
    expect(json.statusCode, json.body).toBe(200);
    const draft = json.json();
    // Oldest first: the alert, then the hit (the transfer may raise alerts of its own, e.g. many customers
    // paying LISTED_ETH in this file).
    expect(draft.evidence[0].kind).toBe("monitoring_alert");
    expect(draft.evidence.map((e: { kind: string }) => e.kind)).toContain("sanctions_hit");
    const alert = draft.evidence[0];
    expect(alert).toMatchObject({
      rule: "structuring",
      ruleLabel: "Structuring just under a limit",
      blocking: false,
      eventKind: "credit",
      details: { limitCents: 100_000, count: 3, windowDays: 7 },
    });
    expect(alert.summary).toContain("limit: $1,000.00");
    expect(alert.summary).toContain("credit $999.99");
    expect(alert.summary).toContain("judged event: credit $950.00");
    // The money the evidence names: the alert's credit and the hit's transfer.
    expect(draft.activity).toMatchObject({
      totalAmount: "20.00",
      transfers: [{ id: transfer.json().transferRequest.id }],
      moneyInTotal: "950.00",
      moneyIn: [{ id: alert.eventId, amount: "950.00", status: "completed" }],
    });

    const pdf = await call("GET", `${CASES}/${opened.id}/report.pdf`, maker);
    expect(pdf.statusCode).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sar-"));
    const file = path.join(dir, "sar.pdf");
    fs.writeFileSync(file, pdf.rawPayload);
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    fs.rmSync(dir, { recursive: true, force: true });
    expect(text).toContain("Monitoring alert");
    expect(text).toContain("Structuring just under a limit");
    expect(text).toContain("credit $999.99");
    expect(text).toContain("Sanctions hit");
    expect(text).toContain("PETROV");
    expect(text).toContain("$950.00");
  });
});

describe("documents", () => {
  it("attaches compliance's own verified upload (image or PDF) that support cannot open", async () => {
    const { caseId, customer } = await customerWithCase();
    const up = await uploadFile(t.app, maker.cookie, PDF, "application/pdf");
    expect(up.putStatus, up.putBody).toBe(200);
    const attached = await call("POST", `${CASES}/${caseId}/documents`, maker, {
      documentUrl: up.objectPath,
      title: "Exchange statement",
    });
    expect(attached.statusCode, attached.body).toBe(200);
    const [doc] = attached.json().case.documents;
    expect(doc).toMatchObject({
      title: "Exchange statement",
      contentType: "application/pdf",
      url: up.objectPath,
    });
    expect((await call("GET", up.objectPath, checker)).statusCode).toBe(200);
    expect((await call("GET", up.objectPath, support)).statusCode).toBe(404);
    expect((await call("GET", up.objectPath, customer)).statusCode).toBe(404);

    // Someone else's upload (the customer's own) is not compliance's to attach.
    const theirs = await uploadFile(t.app, customer.cookie, makePng());
    const stolen = await call("POST", `${CASES}/${caseId}/documents`, maker, {
      documentUrl: theirs.objectPath,
      title: "Not mine",
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().message).toBe(COMPLIANCE_MESSAGES.documentNotFound);
    const traversal = await call("POST", `${CASES}/${caseId}/documents`, maker, {
      documentUrl: "/objects/../../etc/passwd",
      title: "x",
    });
    expect(traversal.statusCode).toBe(400);
  });
});

describe("who may see and touch a case, and bad input", () => {
  it("answers 403 to support, finance and customers on every case route, and 401 signed out", async () => {
    const { caseId, customer } = await customerWithCase();
    const id = await propose(caseId, "clear");
    const routes: [method: "GET" | "POST" | "PUT", url: string, body?: object][] = [
      ["GET", `${CASES}?status=all`],
      ["GET", `${CASES}/${caseId}`],
      ["GET", `${CASES}/${caseId}/report.json`],
      ["GET", `${CASES}/${caseId}/report.pdf`],
      ["GET", "/api/admin/compliance/members"],
      ["PUT", `${CASES}/${caseId}/assignee`, { assigneeId: null }],
      ["POST", `${CASES}/${caseId}/comments`, { body: "hello" }],
      ["PUT", `${CASES}/${caseId}/narrative`, { narrative: "x" }],
      ["POST", `${CASES}/${caseId}/links`, { customer: "a@example.com", note: "note" }],
      ["POST", `${CASES}/${caseId}/decisions`, { decision: "clear", note: "note" }],
      ["POST", `${CASES}/${caseId}/decisions/${id}/approve`, {}],
      ["POST", `${CASES}/${caseId}/decisions/${id}/reject`, {}],
    ];
    for (const [method, url, body] of routes) {
      for (const who of [support, finance, customer]) {
        const res = await call(method, url, who, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.body).not.toContain("PETROV");
      }
      expect((await call(method, url, null, body)).statusCode).toBe(401);
    }
  });

  it("answers 404 for another case's decision and for cases that do not exist", async () => {
    const a = await customerWithCase();
    const b = await customerWithCase();
    const decisionOfA = await propose(a.caseId, "clear");
    const crossed = await check(b.caseId, decisionOfA, "approve", checker);
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json().message).toBe(COMPLIANCE_MESSAGES.decisionNotFound);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await call("GET", `${CASES}/${missing}`, maker)).statusCode).toBe(404);
    expect((await call("POST", `${CASES}/${missing}/comments`, maker, { body: "x" })).statusCode).toBe(404);
    expect((await call("GET", `${CASES}/not-a-uuid`, maker)).statusCode).toBe(400);
    // a's decision still waits: nothing happened to it.
    expect((await call("GET", `${CASES}/${a.caseId}`, maker)).json().pendingDecision).toBe("clear");
  });

  it("refuses huge comments, NUL bytes, lone surrogates and wrong types, storing nothing", async () => {
    const { caseId } = await customerWithCase();
    const tooLong = await call("POST", `${CASES}/${caseId}/comments`, maker, {
      body: "x".repeat(MAX_COMMENT_CHARS + 1),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe(COMPLIANCE_MESSAGES.commentRequired);
    const huge = await call("POST", `${CASES}/${caseId}/comments`, maker, {
      body: "x".repeat(5 * 1024 * 1024),
    });
    expect(huge.statusCode).toBe(413);
    const nul = await call("POST", `${CASES}/${caseId}/comments`, maker, { body: "before\u0000after" });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().message).toBe(COMPLIANCE_MESSAGES.unstorableText);
    const nulNarrative = await call("PUT", `${CASES}/${caseId}/narrative`, maker, { narrative: "a\u0000b" });
    expect(nulNarrative.statusCode).toBe(400);
    const nulNote = await call("POST", `${CASES}/${caseId}/decisions`, maker, {
      decision: "clear",
      note: "ok\u0000ok",
    });
    expect(nulNote.statusCode).toBe(400);
    const surrogate = await call(
      "POST",
      `${CASES}/${caseId}/comments`,
      maker,
      '{"body":"bad \\ud800 text"}',
      { "content-type": "application/json" },
    );
    expect(surrogate.statusCode).toBe(400);
    for (const body of [{ body: 42 }, { body: ["x"] }, {}, { body: "   " }]) {
      expect((await call("POST", `${CASES}/${caseId}/comments`, maker, body)).statusCode).toBe(400);
    }
    for (const body of [
      { decision: "confirm", note: "old decision" },
      { decision: "clear", note: "x" },
      { decision: "clear" },
    ]) {
      expect((await call("POST", `${CASES}/${caseId}/decisions`, maker, body)).statusCode).toBe(400);
    }
    const scripts = "Ёлка 北京 مرحبا दिल्ली 🙂";
    const ok = await call("POST", `${CASES}/${caseId}/comments`, maker, { body: scripts });
    expect(ok.json().case.comments.map((c: { body: string }) => c.body)).toEqual([scripts]);
  });
});
