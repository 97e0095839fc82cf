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
    const id = await ask(requester, payer, "12.50", "Concert <tickets>");

    const asked = await sink.waitForMail(payer.email, (m) => m.subject.includes("requested"));
    expect(asked.subject).toBe(`Pillar: ${tagOf(requester)} requested $12.50`);
    expect(asked.text).toContain(`${tagOf(requester)} asked you for $12.50: "Concert <tickets>"`);
    expect(asked.text).toMatch(/Pay or decline it here: http\S+\/pay\s/);
    expect(asked.text).toContain("Nothing moves until you choose to pay.");
    // The note is the requester's own words: escaped in the HTML part.
    expect(asked.html).toContain("Concert &lt;tickets&gt;");

    const paid = await post(payer, `/api/transfer/requests/${id}/pay`, {}, `mail-pay-${id}`);
    expect(paid.statusCode, paid.body).toBe(201);
    const told = await sink.waitForMail(requester.email, (m) => m.subject.includes("paid your request"));
    expect(told.subject).toBe(`Pillar: ${tagOf(payer)} paid your request`);
    expect(told.text).toContain("Hi Morgan,");
    expect(told.text).toContain(`${tagOf(payer)} paid your request for $12.50. It is in your balance now.`);
    // A replay of the payment tells no one again.
    expect((await post(payer, `/api/transfer/requests/${id}/pay`, {}, `mail-pay-${id}`)).statusCode).toBe(
      201,
    );
    expect(await queued(requester.email, "money_request_paid")).toBe(1);
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
