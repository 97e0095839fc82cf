import { describe, expect, it } from "vitest";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import {
  createAdminUser,
  createVerifiedUser,
  type SignedInUser,
  setUpAdminUser,
  setUpVerifiedUser,
} from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100" }));
const admin = setUpAdminUser(t);
const customer = setUpVerifiedUser(t);

const as = (who: SignedInUser | null, method: "GET" | "POST" | "DELETE", url: string, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });

const auditRows = (action: string) =>
  t.database.query<{ actor_id: string; target_id: string; before: unknown; after: unknown }>(
    "select actor_id, target_id, before, after from audit_log where action = $1 order by id",
    [action],
  );

describe("admin gate", () => {
  const routes: ["GET" | "POST" | "DELETE", string][] = [
    ["GET", "/api/admin/stats"],
    ["GET", "/api/admin/users"],
    ["GET", "/api/admin/users/00000000-0000-4000-8000-000000000000"],
    ["DELETE", "/api/admin/users/00000000-0000-4000-8000-000000000000"],
    ["POST", "/api/admin/test-email"],
    ["POST", "/api/admin/send-payment-notification"],
    ["GET", "/api/admin/no-such-route"],
  ];

  it.each(routes)("%s %s answers 401 signed out", async (method, url) => {
    const res = await as(null, method, url, method === "POST" ? {} : undefined);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTruthy();
  });

  it.each(routes)("%s %s answers 403 for a customer", async (method, url) => {
    const res = await as(customer, method, url, method === "POST" ? {} : undefined);
    expect(res.statusCode).toBe(403);
  });

  it("answers an unknown admin route with 404 for an admin", async () => {
    const res = await as(admin, "GET", "/api/admin/no-such-route");
    expect(res.statusCode).toBe(404);
  });
});

describe("users", () => {
  it("lists every account with $0.00 balances and counts customers only", async () => {
    const list = await as(admin, "GET", "/api/admin/users");
    expect(list.statusCode).toBe(200);
    const found = list.json().items.find((u: { id: string }) => u.id === customer.user.id);
    expect(found).toMatchObject({
      email: customer.email,
      isAdmin: false,
      isVerified: true,
      accountBalance: "$0.00",
      availableBalance: "$0.00",
      pendingBalance: "$0.00",
    });
    expect(found).not.toHaveProperty("passwordHash");
    const stats = await as(admin, "GET", "/api/admin/stats");
    expect(stats.json()).toMatchObject({ totalUsers: 1, totalBalance: "$0.00" });
  });

  it("reads one user, 404 for an unknown id and 400 for a malformed one", async () => {
    expect((await as(admin, "GET", `/api/admin/users/${customer.user.id}`)).json().email).toBe(
      customer.email,
    );
    expect((await as(admin, "GET", "/api/admin/users/00000000-0000-4000-8000-000000000000")).statusCode).toBe(
      404,
    );
    const bad = await as(admin, "GET", "/api/admin/users/1%20or%201=1");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("Not a valid user id");
  });

  it("never deletes an admin", async () => {
    const other = await createAdminUser(t.database);
    const res = await as(admin, "DELETE", `/api/admin/users/${other.user.id}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe("Admin users cannot be deleted");
    expect((await as(admin, "GET", `/api/admin/users/${other.user.id}`)).statusCode).toBe(200);
  });

  it("deletes a customer, ends their sessions and writes the audit row in the same step", async () => {
    const doomed = await createVerifiedUser(t.database);
    const res = await as(admin, "DELETE", `/api/admin/users/${doomed.user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe("User deleted successfully");
    expect((await as(doomed, "GET", "/api/auth/user")).statusCode).toBe(401);
    expect((await as(admin, "DELETE", `/api/admin/users/${doomed.user.id}`)).statusCode).toBe(404);
    const [row] = await auditRows("user.delete");
    expect(row).toMatchObject({ actor_id: admin.user.id, target_id: doomed.user.id, after: null });
    expect(row.before).toMatchObject({ email: doomed.email });
  });
});

describe("mail desk", () => {
  it("sends a test e-mail with a 6-digit code through real SMTP, marked as a test", async () => {
    const res = await as(admin, "POST", "/api/admin/test-email", {
      email: admin.email.toUpperCase(),
      firstName: "Ops",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: `Test email sent successfully to ${admin.email.toUpperCase()}`,
      email: admin.email.toUpperCase(),
    });
    const mail = await sink.waitForMail(admin.email.toUpperCase());
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.subject).toBe("[TEST] Pillar test e-mail");
    expect(mail.text).toMatch(/^TEST E-MAIL from Pillar staff/);
    expect(mail.html).toContain("TEST E-MAIL from Pillar staff");
    expect(await auditRows("mail.test_email")).toHaveLength(1);
  });

  // Test mail to staff only (docs/architecture.md "Design notes"): a realistic "you received $5,000.00 from
  // Acme Corp" reached a real customer, no money behind it.
  it("sends samples to staff addresses only: a customer's or a stranger's is refused, nothing queued", async () => {
    const queued = async () =>
      (await t.database.query<{ n: number }>("select count(*)::int as n from mail_outbox"))[0]!.n;
    const before = await queued();
    for (const email of [customer.email, "stranger@example.com"]) {
      const notification = await as(admin, "POST", "/api/admin/send-payment-notification", {
        email,
        recipientName: "Ada",
        fromName: "Acme Corp",
        amount: "5000",
      });
      expect(notification.statusCode, notification.body).toBe(422);
      expect(notification.json()).toMatchObject({
        testMailStaffOnly: true,
        message: "Test e-mails go to staff addresses only: enter your own address or another staff member's",
      });
      const test = await as(admin, "POST", "/api/admin/test-email", { email, firstName: "Ada" });
      expect(test.statusCode).toBe(422);
    }
    expect(await queued()).toBe(before);
    expect(await auditRows("mail.payment_notification")).toHaveLength(0);
  });

  it("refuses a test e-mail without both fields", async () => {
    const res = await as(admin, "POST", "/api/admin/test-email", {
      email: "ops@example.com",
      firstName: "  ",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("Please enter both email and first name");
  });

  it("sends a payment notification with the amount formatted and names escaped, marked as a test", async () => {
    const res = await as(admin, "POST", "/api/admin/send-payment-notification", {
      email: admin.email,
      recipientName: "<b>Bo</b>",
      fromName: "Acme",
      amount: "1250.5",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe("Payment notification email sent successfully");
    const mail = await sink.waitForMail(admin.email);
    expect(mail.subject).toBe("[TEST] Pillar: you received $1,250.50 from Acme");
    expect(mail.text).toMatch(/^TEST E-MAIL from Pillar staff/);
    expect(mail.text).toContain("$1,250.50");
    expect(mail.html).toContain("&lt;b&gt;Bo&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>Bo</b>");
  });

  it.each([
    [{ email: "payee@example.com", recipientName: "Bo", fromName: "Acme" }, "Please fill all fields"],
    [
      { email: "payee@example.com", recipientName: "Bo", fromName: "Acme", amount: "-5" },
      /positive dollar amount/,
    ],
    [
      { email: "payee@example.com", recipientName: "Bo", fromName: "Acme", amount: "1.234" },
      /at most 2 decimals/,
    ],
    [
      { email: "nope", recipientName: "Bo", fromName: "Acme", amount: "5" },
      "Please enter a valid email address",
    ],
    [
      { email: "payee@example.com", recipientName: "x".repeat(10_000), fromName: "Acme", amount: "5" },
      /at most 100/,
    ],
  ])("refuses a bad payment notification %#", async (payload, message) => {
    const before = (await auditRows("mail.payment_notification")).length;
    const res = await as(admin, "POST", "/api/admin/send-payment-notification", payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await auditRows("mail.payment_notification")).toHaveLength(before);
  });
});
