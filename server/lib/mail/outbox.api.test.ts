import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startLoop } from "@/server/jobs/loop";
import { enqueueMail, wakeMailWorker } from "@/server/lib/mail/outbox";
import { paymentNotificationMail, testCodeMail } from "@/server/lib/mail/templates";
import { mailWorkerLoop } from "@/server/lib/mail/worker";
import { reserveSmtpSink, type SmtpSink, startSmtpSink } from "@/tests/support/smtp-sink";
import { createTestApp, type TestApp } from "@/tests/support/test-app";
import { signupBody } from "@/tests/support/users";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});
afterAll(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

async function outbox(t: TestApp, to: string) {
  return t.database.query<{ status: string; attempts: number; last_error: string | null }>(
    "select status, attempts, last_error from mail_outbox where to_address = $1",
    [to],
  );
}

describe("mail outbox", { timeout: 60_000 }, () => {
  it("keeps sign-up working while SMTP is down and delivers once it is back", async () => {
    const sink: SmtpSink = await reserveSmtpSink();
    opened.push(sink);
    const t = await createTestApp({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100" });
    opened.push(t);
    const body = signupBody();
    const res = await t.app.inject({ method: "POST", url: "/api/auth/register", payload: body });
    expect(res.statusCode).toBe(200);

    await expect.poll(async () => (await outbox(t, body.email))[0]?.attempts, { timeout: 20_000 }).toBe(1);
    const [row] = await outbox(t, body.email);
    expect(row).toMatchObject({ status: "pending" });
    expect(row!.last_error).toMatch(/ECONNREFUSED|connect/i);

    await sink.listen();
    // Skip the backoff wait rather than sleep: the row is due now, and the worker is told so.
    await t.database.query("update mail_outbox set next_attempt_at = now()");
    wakeMailWorker();
    const mail = await sink.waitForMail(body.email);
    expect(mail.code).toMatch(/^\d{6}$/);
    await expect.poll(async () => (await outbox(t, body.email))[0]?.status).toBe("sent");
  });

  it("sends each message once with two workers on the same outbox", async () => {
    const sink = await startSmtpSink();
    opened.push(sink);
    const t = await createTestApp({ RATE_LIMIT_SCALE: "100" });
    opened.push(t);
    const count = 20;
    for (let i = 0; i < count; i++) {
      await enqueueMail(t.database.db, testCodeMail(`many${i}@example.com`, "Tess", String(100000 + i)));
    }
    const log = t.app.log;
    // Two workers as two instances run them: each its own loop, racing for the same rows.
    const workers = [1, 2].map(() =>
      startLoop({
        ...mailWorkerLoop({
          database: t.database,
          smtpUrl: sink.url,
          from: "Pillar <no-reply@pillar.test>",
          log,
          batchSize: 3,
        }),
        log,
      }),
    );
    for (const w of workers) opened.push({ close: () => w.stop() });
    await Promise.all(workers.map((w) => w.drain()));
    await expect.poll(() => sink.messages.length).toBe(count);
    await new Promise((r) => setTimeout(r, 200));
    const recipients = sink.messages.map((m) => m.to[0]);
    expect(new Set(recipients).size).toBe(count);
    expect(sink.messages).toHaveLength(count);
  });

  it("gives up after the last attempt and marks the mail failed", async () => {
    const sink = await reserveSmtpSink();
    const t = await createTestApp({ RATE_LIMIT_SCALE: "100" });
    opened.push(t);
    await enqueueMail(t.database.db, testCodeMail("never@example.com", "Nev", "123456"));
    const log = t.app.log;
    const worker = startLoop({
      ...mailWorkerLoop({
        database: t.database,
        smtpUrl: sink.url,
        from: "x@pillar.test",
        log,
        retryBaseMs: 0,
        maxAttempts: 2,
      }),
      log,
    });
    opened.push({ close: () => worker.stop() });
    await expect
      .poll(async () => (await outbox(t, "never@example.com"))[0]?.status, { timeout: 20_000 })
      .toBe("failed");
    expect((await outbox(t, "never@example.com"))[0]?.attempts).toBe(2);
  });

  it("renders the payment notification with escaped values", () => {
    const mail = paymentNotificationMail("r@example.com", {
      recipientName: "<Rita>",
      fromName: "Acme & Sons\r\nBcc: evil@example.com",
      amount: "$1,234.56",
    });
    expect(mail.html).toContain("&lt;Rita&gt;");
    expect(mail.html).toContain("Acme &amp; Sons");
    expect(mail.text).toContain("$1,234.56");
  });
});

describe("dev mailbox (no SMTP_URL)", () => {
  it("keeps the mail in the outbox and lists it newest first as HTML and JSON", async () => {
    const t = await createTestApp({ RATE_LIMIT_SCALE: "100" });
    opened.push(t);
    const first = signupBody();
    const second = signupBody({ firstName: "<b>Bold</b>" });
    for (const body of [first, second]) {
      expect(
        (await t.app.inject({ method: "POST", url: "/api/auth/register", payload: body })).statusCode,
      ).toBe(200);
    }
    const json = await t.app.inject({ method: "GET", url: "/dev/mailbox.json" });
    expect(json.statusCode).toBe(200);
    const list = json.json() as { to: string; text: string; status: string }[];
    expect(list.map((m) => m.to).slice(0, 2)).toEqual([second.email, first.email]);
    expect(list[0]!.status).toBe("pending");
    expect(list[0]!.text).toMatch(/\b\d{6}\b/);
    const page = await t.app.inject({ method: "GET", url: "/dev/mailbox" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain(first.email);
    expect(page.body).not.toContain("<b>Bold</b>");
  });

  it("is not there in production", async () => {
    const t = await createTestApp({
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(64),
      DATA_KEY: "a".repeat(64),
    });
    opened.push(t);
    expect((await t.app.inject({ method: "GET", url: "/dev/mailbox" })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/dev/mailbox.json" })).statusCode).toBe(404);
  });
});
