import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { type ServerProcess, startServer, waitFor } from "@/tests/support/server-process";
import { reserveSmtpSink, type SmtpSink } from "@/tests/support/smtp-sink";
import { signupBody } from "@/tests/support/users";

let scratch: ScratchDatabase;
let sink: SmtpSink;
let server: ServerProcess;

interface OutboxRow {
  status: string;
  attempts: number;
  last_error: string | null;
}

beforeAll(async () => {
  scratch = await createScratchDatabase(process.env.DATABASE_URL!);
  // A real SMTP server with a known port that is not listening yet: the mail server is down.
  sink = await reserveSmtpSink();
  server = await startServer({ DATABASE_URL: scratch.url, SMTP_URL: sink.url });
});

afterAll(async () => {
  await server?.stop();
  await sink?.close();
  await scratch?.drop();
});

describe("the mail server being down", () => {
  it("keeps the mail in the outbox and delivers it once SMTP is back, without a restart", async () => {
    const body = signupBody();
    const email = body.email.toLowerCase();
    const outboxRow = async () =>
      (
        await scratch.database.query<OutboxRow>(
          "select status, attempts, last_error from mail_outbox where to_address = $1",
          [email],
        )
      )[0];

    // Sign-up does not fail because SMTP is down: the code waits in the outbox.
    const reg = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(reg.status, await reg.text()).toBe(200);

    const failed = await waitFor("a failed delivery attempt to be recorded", async () => {
      const row = await outboxRow();
      return row && row.attempts >= 1 ? row : undefined;
    });
    expect(failed.status).toBe("pending");
    expect(failed.last_error).toBeTruthy();
    expect(sink.messages).toHaveLength(0);

    await sink.listen();

    // The worker's own retry (5 s, then doubling) picks it up; no restart, no manual nudge.
    const mail = await sink.waitForMail(email, (m) => /verification code/i.test(m.subject), 90_000);
    expect(mail.code).toMatch(/^\d{6}$/);
    const sent = await waitFor("the outbox row to be marked sent", async () => {
      const row = await outboxRow();
      return row?.status === "sent" ? row : undefined;
    });
    expect(sent.attempts).toBeGreaterThanOrEqual(2);
    expect(sent.last_error).toBeNull();
    expect(server.child.exitCode).toBeNull();

    // The code that waited out the outage still verifies the address.
    const verify = await fetch(`${server.url}/api/auth/verify-email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, otp: mail.code }),
    });
    expect(verify.status, await verify.text()).toBe(200);
  });
});
