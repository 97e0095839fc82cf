import { describe, expect, it } from "vitest";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import {
  holdAfterAnswerWork,
  pendingAfterAnswerWork,
  settleAfterAnswerWork,
} from "@/server/lib/after-answer";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser } from "@/tests/support/users";

// docs/architecture.md "Design notes" (a customer's trust): forgot-password answered about 3x slower for an
// e-mail with an account, because the code and its mail were made before the answer. Proved without timings:
// the answer is given while that work is held.
const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100" }));

const forgot = (email: string, remoteAddress: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email }, remoteAddress });

async function resetWork(userId: string) {
  const [row] = await t.database.query<{ codes: number; mails: number }>(
    `select (select count(*)::int from one_time_codes where user_id = $1 and purpose = 'reset_password') as codes,
            (select count(*)::int from mail_outbox where kind = 'password_reset_code') as mails`,
    [userId],
  );
  return row!;
}

describe("POST /api/auth/forgot-password answers before any work on the account", () => {
  it("answers a known and an unknown e-mail alike while the reset work is still queued, then sends the code", async () => {
    const { user, email } = await createVerifiedUser(t.database);
    const before = await resetWork(user.id);
    const release = holdAfterAnswerWork();
    let known: Awaited<ReturnType<typeof forgot>>;
    let unknown: Awaited<ReturnType<typeof forgot>>;
    try {
      known = await forgot(email, "10.27.0.1");
      unknown = await forgot("nobody-here@example.com", "10.27.0.2");
      // Both answered with the work for each still waiting: the answer did not wait for it, in either case.
      expect(pendingAfterAnswerWork()).toBe(2);
      expect(await resetWork(user.id)).toEqual(before);
    } finally {
      release();
    }
    for (const res of [known, unknown]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: AUTH_SERVER_MESSAGES.resetRequested });
    }
    await settleAfterAnswerWork();
    expect(await resetWork(user.id)).toEqual({ codes: before.codes + 1, mails: before.mails + 1 });
    const mail = await sink.waitForMail(email, (m) => /password reset/i.test(m.subject));
    expect(mail.code).toMatch(/^\d{6}$/);
  });
});
