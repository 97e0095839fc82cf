import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { addDays } from "@/server/features/schedules/schedule-dates";
import { runDueSchedules } from "@/server/features/schedules/schedule-runner";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { createFundedCustomer, ETH_ADDRESS, expectLedgerCleanAfterEach } from "@/tests/support/money";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// A skipped run e-mails its owner (decision 036), as they chose for "Transfer updates" in Settings → Notifications.
// The runner is off: each test runs a pass by hand at noon in New York on the run's day.
const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100" }), { scheduleRunner: false });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

const TOMORROW = addDays(limitDayOf(new Date()), 1);
const runTomorrow = () =>
  runDueSchedules({ ...t.app.deps }, { now: () => new Date(`${TOMORROW}T17:00:00Z`) });

async function scheduleOnce(customer: SignedInUser, amount: string) {
  const saved = await t.app.inject({
    method: "POST",
    url: "/api/recipients",
    headers: { cookie: customer.cookie },
    payload: { name: "Sam Lee", address: ETH_ADDRESS },
  });
  expect(saved.statusCode, saved.body).toBe(201);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/schedules",
    headers: { cookie: customer.cookie },
    payload: {
      recipientId: saved.json().recipient.id,
      amount,
      cadence: "once",
      startOn: TOMORROW,
      requestKey: `form-${randomBytes(8).toString("hex")}`,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
}

describe("a skipped scheduled run", () => {
  it("e-mails its owner with the reason", async () => {
    const customer = await createFundedCustomer(t, admin, "20.00");
    await scheduleOnce(customer, "50.00");
    expect(await runTomorrow()).toMatchObject({ made: 0, skipped: 1 });

    const mail = await sink.waitForMail(customer.email, (m) => m.subject.includes("skipped"));
    expect(mail.subject).toBe("Pillar: a scheduled transfer was skipped");
    expect(mail.text).toContain(
      "your scheduled transfer of $50.00 to Sam Lee for " +
        new Date(`${TOMORROW}T12:00:00Z`).toLocaleDateString("en-US", {
          timeZone: "UTC",
          weekday: "long",
          month: "long",
          day: "numeric",
          year: "numeric",
        }) +
        " was not made: there was not enough available balance.",
    );
    expect(mail.text).toMatch(
      /This was the schedule's last transfer\. You can review or change the schedule here: http\S+\/schedules\s/,
    );
  });

  it("sends no e-mail to an owner who turned transfer e-mails off, and still tells them in the app", async () => {
    const customer = await createFundedCustomer(t, admin, "20.00");
    const off = await t.app.inject({
      method: "PUT",
      url: "/api/notifications/preferences",
      headers: { cookie: customer.cookie },
      payload: { kind: "transfer_status", inApp: true, email: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    await scheduleOnce(customer, "50.00");
    expect(await runTomorrow()).toMatchObject({ skipped: 1 });
    const [queued] = await t.database.query<{ n: string }>(
      "select count(*)::text as n from mail_outbox where to_address = $1 and kind = 'schedule_skipped'",
      [customer.email],
    );
    expect(queued!.n).toBe("0");
    const told = await t.database.query<{ title: string }>(
      "select title from notifications where user_id = $1 and kind = 'transfer_status'",
      [customer.user.id],
    );
    expect(told.map((n) => n.title)).toContain("Scheduled transfer skipped");
  });
});
