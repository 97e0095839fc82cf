import { describe, expect, it } from "vitest";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
} from "@/tests/support/money";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Money requests by e-mail (decision 037): the payer when asked, the requester when paid or declined, each as the
// customer chose for "Money requests" in Settings → Notifications. Read from a real SMTP server.
const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100" }));
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

const tagOf = (who: SignedInUser) => `$${who.user.pillarTag}`;
const post = (who: SignedInUser, url: string, payload?: object, key?: string) =>
  t.app.inject({
    method: "POST",
    url,
    headers: { cookie: who.cookie, ...(key ? { "idempotency-key": key } : {}) },
    ...(payload ? { payload } : {}),
  });

async function ask(requester: SignedInUser, payer: SignedInUser, amount: string, note?: string) {
  const res = await post(requester, "/api/transfer/requests", {
    tag: tagOf(payer),
    amount,
    ...(note ? { note } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().request.id as string;
}

const queued = async (to: string, kind: string) =>
  Number(
    (
      await t.database.query<{ n: string }>(
        "select count(*)::text as n from mail_outbox where to_address = $1 and kind = $2",
        [to, kind],
      )
    )[0]!.n,
  );

describe("money request e-mails", () => {
  it("tells the payer when asked and the requester when paid", async () => {
    const requester = await createApprovedCustomer(t.database, { firstName: "Morgan" });
    const payer = await createFundedCustomer(t, admin, "100.00");
    const id = await ask(requester, payer, "12.50", "Concert tickets");

    const asked = await sink.waitForMail(payer.email, (m) => m.subject.includes("requested"));
    expect(asked.subject).toBe(`Pillar: ${tagOf(requester)} requested $12.50`);
    expect(asked.text).toContain(
      `${tagOf(requester)} asked you for $12.50 with a note — open Pillar to read it.`,
    );
    expect(asked.text).not.toContain("Concert");
    expect(asked.text).toMatch(/Pay or decline it here: http\S+\/pay\s/);
    expect(asked.text).toContain("Nothing moves until you choose to pay.");

    const paid = await post(payer, `/api/transfer/requests/${id}/pay`, {}, `mail-pay-${id}`);
    expect(paid.statusCode, paid.body).toBe(201);
    // Written after the payment's commit, by the jobs room.
    await t.app.jobs.drainConsumers();
    const told = await sink.waitForMail(requester.email, (m) => m.subject.includes("paid your request"));
    expect(told.subject).toBe(`Pillar: ${tagOf(payer)} paid your request`);
    expect(told.text).toContain("Hi Morgan,");
    expect(told.text).toContain(`${tagOf(payer)} paid your request for $12.50. It is in your balance now.`);
    // A replay of the payment tells no one again.
    expect((await post(payer, `/api/transfer/requests/${id}/pay`, {}, `mail-pay-${id}`)).statusCode).toBe(
      201,
    );
    await t.app.jobs.drainConsumers();
    expect(await queued(requester.email, "money_request_paid")).toBe(1);
  });

  it("never carries the requester's note into the bank's e-mail or notification (a phishing channel)", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createApprovedCustomer(t.database, { firstName: "Riley" });
    const lure = "Your Pillar account is locked. Verify now: https://pillar-secure.example/verify";
    await ask(requester, payer, "5.00", lure);

    const asked = await sink.waitForMail(payer.email, (m) => m.subject.includes("requested"));
    expect(asked.subject).toBe(`Pillar: ${tagOf(requester)} requested $5.00`);
    expect(asked.text).toContain(
      `Hi Riley, ${tagOf(requester)} asked you for $5.00 with a note — open Pillar to read it.`,
    );
    for (const part of [asked.subject, asked.text, asked.html]) {
      expect(part).not.toContain("pillar-secure.example");
      expect(part).not.toContain("account is locked");
    }
    const [inApp] = await t.database.query<{ title: string; body: string }>(
      "select title, body from notifications where user_id = $1 and kind = 'money_request'",
      [payer.user.id],
    );
    expect(inApp?.body).toBe(`${tagOf(requester)} asked you for $5.00 with a note — open Pillar to read it.`);
    // The note itself is shown in the app, beside the request.
    const incoming = await t.app.inject({
      method: "GET",
      url: "/api/transfer/requests?direction=incoming",
      headers: { cookie: payer.cookie },
    });
    expect(incoming.json().requests[0].note).toBe(lure);
  });

  it("sends a blocked requester's payer nothing at all", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createApprovedCustomer(t.database);
    const first = await ask(requester, payer, "2.00");
    await sink.waitForMail(payer.email, (m) => m.subject.includes("requested $2.00"));
    expect((await post(payer, `/api/transfer/requests/${first}/block`)).statusCode).toBe(200);
    await ask(requester, payer, "3.00", "hello again");
    expect(await queued(payer.email, "money_requested")).toBe(1);
    const rows = await t.database.query<{ title: string }>(
      "select title from notifications where user_id = $1 and kind = 'money_request'",
      [payer.user.id],
    );
    expect(rows.map((r) => r.title)).toEqual([`${tagOf(requester)} requested $2.00`]);
  });

  it("tells the requester when declined, and sends nothing to a customer who turned these e-mails off", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createApprovedCustomer(t.database);
    const off = await t.app.inject({
      method: "PUT",
      url: "/api/notifications/preferences",
      headers: { cookie: payer.cookie },
      payload: { kind: "money_request", inApp: true, email: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    const id = await ask(requester, payer, "3.00");
    expect(await queued(payer.email, "money_requested")).toBe(0);
    // Still told in the app: only the e-mail was turned off.
    const [inApp] = await t.database.query<{ title: string }>(
      "select title from notifications where user_id = $1 and kind = 'money_request'",
      [payer.user.id],
    );
    expect(inApp?.title).toBe(`${tagOf(requester)} requested $3.00`);

    expect((await post(payer, `/api/transfer/requests/${id}/decline`)).statusCode).toBe(200);
    const declined = await sink.waitForMail(requester.email, (m) => m.subject.includes("declined"));
    expect(declined.subject).toBe(`Pillar: ${tagOf(payer)} declined your request`);
    expect(declined.text).toContain(`${tagOf(payer)} declined your request for $3.00. No money moved.`);
  });
});
