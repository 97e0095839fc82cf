import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "@/contract/auth";
import { SECURITY_MESSAGES } from "@/contract/security";
import { issueFreezeLink } from "@/server/features/security/freeze-links";
import { createSession } from "@/server/lib/session";
import { createFundedCustomer, ETH_ADDRESS, expectLedgerClean } from "@/tests/support/money";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, setUpAdminUser } from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({
  SMTP_URL: sink.url,
  RATE_LIMIT_SCALE: "100",
  PUBLIC_URL: "https://bank.example",
}));
const admin = setUpAdminUser(t);

const post = (url: string, payload?: object, cookie?: string) =>
  t.app.inject({ method: "POST", url, ...(payload ? { payload } : {}), headers: cookie ? { cookie } : {} });
const get = (url: string, cookie: string) => t.app.inject({ method: "GET", url, headers: { cookie } });
const freeze = (token: unknown) =>
  t.app.inject({ method: "POST", url: "/api/account/freeze", payload: { token } });
const tokenIn = (text: string) => /\/this-wasnt-me#token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
const count = async (query: string, params: unknown[] = []) =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from (${query}) q`, params))[0]!.n;

const TRANSFER = {
  amount: "25.00",
  recipientName: "Grace Hopper",
  purpose: "Rent",
  paymentMethod: "crypto",
  cryptoAddress: ETH_ADDRESS,
};

const fundedCustomer = () => createFundedCustomer(t, admin, "500.00");
const freezeLinkFor = (userId: string, reason: Parameters<typeof issueFreezeLink>[2]["reason"]) =>
  issueFreezeLink(t.database.db, { config: t.app.deps.config }, { userId, reason });

async function freshCookie(userId: string) {
  const { token } = await createSession(t.database.db, { userId, userAgent: "vitest", ip: "127.0.0.1" });
  return `sid=${token}`;
}

describe("the Transfer requested mail", () => {
  it("goes out for every transfer request, with the amount, recipient and a This wasn't me link", async () => {
    const customer = await fundedCustomer();
    const res = await post("/api/transfer/request", TRANSFER, customer.cookie);
    expect(res.statusCode, res.body).toBe(201);
    const mail = await sink.waitForMail(customer.email, (m) => m.subject.includes("requested"));
    expect(mail.subject).toBe("Pillar: transfer of $25.00 requested");
    expect(mail.text).toContain("Amount: $25.00");
    expect(mail.text).toContain("To: Grace Hopper");
    expect(mail.text).toContain(`Wallet: ${ETH_ADDRESS}`);
    expect(mail.text).toContain("https://bank.example/this-wasnt-me#token=");
    const reasons = await t.database.query<{ reason: string }>(
      "select reason from freeze_links where user_id = $1",
      [customer.user.id],
    );
    expect(reasons).toEqual([{ reason: "transfer" }]);
    // An idempotent replay is not a new request: no second mail.
    const key = { "idempotency-key": "freeze-test-1" };
    const once = await t.app.inject({
      method: "POST",
      url: "/api/transfer/request",
      payload: TRANSFER,
      headers: { cookie: customer.cookie, ...key },
    });
    const twice = await t.app.inject({
      method: "POST",
      url: "/api/transfer/request",
      payload: TRANSFER,
      headers: { cookie: customer.cookie, ...key },
    });
    expect([once.statusCode, twice.statusCode]).toEqual([201, 201]);
    // The mail and its link are the jobs room's, after the commit: one per transfer made, none for the replay.
    await t.app.jobs.drainConsumers();
    expect(await count("select 1 from freeze_links where user_id = $1", [customer.user.id])).toBe(2);
    await expectLedgerClean(t.database);
  });
});

describe("This wasn't me", () => {
  it("freezes the account end to end from the link in the transfer mail", async () => {
    const customer = await fundedCustomer();
    const other = await freshCookie(customer.user.id);
    const sent = await post("/api/transfer/request", TRANSFER, customer.cookie);
    expect(sent.statusCode).toBe(201);
    const transferId = sent.json().transferRequest.id as string;
    const mail = await sink.waitForMail(customer.email, (m) => m.subject.includes("requested"));
    // Both sessions were used, so this process holds them in its session cache.
    expect((await get("/api/auth/user", customer.cookie)).json().isFrozen).toBe(false);
    expect((await get("/api/auth/user", other)).statusCode).toBe(200);

    const res = await freeze(tokenIn(mail.text));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: SECURITY_MESSAGES.frozen, alreadyFrozen: false });

    // Every session ended.
    expect((await get("/api/auth/user", customer.cookie)).statusCode).toBe(401);
    expect((await get("/api/auth/user", other)).statusCode).toBe(401);
    // The pending transfer is flagged for the admin.
    const queue = (await get("/api/admin/transfer-requests", admin.cookie)).json().items;
    const flagged = queue.find((r: { id: string }) => r.id === transferId);
    expect(flagged.flaggedAt).toEqual(expect.any(String));
    expect(flagged.status).toBe("pending");
    // One audit row, by nobody signed in.
    const audit = await t.database.query<{ actor_id: string | null; after: { reason: string } }>(
      "select actor_id, after from audit_log where action = 'user.freeze' and target_id = $1",
      [customer.user.id],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: null,
      after: { reason: "transfer", flaggedTransferIds: [transferId] },
    });
    // Support sees it as an unread message in the customer's chat.
    const chats = (await get("/api/admin/chats", admin.cookie)).json().items;
    const chat = chats.find((c: { userId: string }) => c.userId === customer.user.id);
    expect(chat.unreadCount).toBe(1);
    expect(chat.lastMessage.message).toMatch(/This wasn't me/);
    expect(chat.lastMessage.message).toMatch(/frozen/);
    // Admin's user list shows it.
    const adminView = (await get(`/api/admin/users/${customer.user.id}`, admin.cookie)).json();
    expect(adminView.frozenAt).toEqual(expect.any(String));
    expect(adminView.passwordResetRequired).toBe(true);

    // New transfers are refused, writing nothing, even with a session made after the freeze.
    const later = await freshCookie(customer.user.id);
    expect((await get("/api/auth/user", later)).json().isFrozen).toBe(true);
    await t.app.jobs.drainConsumers();
    const before = await count(
      "select 1 from transfer_requests union all select 1 from mail_outbox union all select 1 from holds",
    );
    const refused = await post("/api/transfer/request", TRANSFER, later);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ accountFrozen: true, message: SECURITY_MESSAGES.accountFrozen });
    expect(
      await count(
        "select 1 from transfer_requests union all select 1 from mail_outbox union all select 1 from holds",
      ),
    ).toBe(before);

    // A second click answers clearly and writes nothing.
    const again = await freeze(tokenIn(mail.text));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: SECURITY_MESSAGES.alreadyFrozen, alreadyFrozen: true });
    expect(
      await count("select 1 from audit_log where action = 'user.freeze' and target_id = $1", [
        customer.user.id,
      ]),
    ).toBe(1);
    expect(await count("select 1 from chat_messages where user_id = $1", [customer.user.id])).toBe(1);
    await expectLedgerClean(t.database);
  });

  it("asks for a password reset at sign-in, only once the password is right; the reset clears it, the freeze stays", async () => {
    const customer = await fundedCustomer();
    const url = await freezeLinkFor(customer.user.id, "new_device");
    expect((await freeze(tokenIn(url))).statusCode).toBe(200);

    const wrong = await post("/api/auth/login", { email: customer.email, password: "Not-the-password-1" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(AUTH_MESSAGES.invalidCredentials);
    expect(wrong.json().passwordResetRequired).toBeUndefined();
    const right = await post("/api/auth/login", { email: customer.email, password: customer.password });
    expect(right.statusCode).toBe(403);
    expect(right.json()).toMatchObject({
      passwordResetRequired: true,
      message: SECURITY_MESSAGES.passwordResetRequired,
    });
    expect(right.headers["set-cookie"]).toBeUndefined();

    await post("/api/auth/forgot-password", { email: customer.email });
    const { code } = await sink.waitForMail(customer.email, (m) => /reset/i.test(m.subject));
    const newPassword = "Violet-Harbour-58-compass";
    const reset = await post("/api/auth/reset-password", {
      email: customer.email,
      resetCode: code,
      newPassword,
    });
    expect(reset.statusCode).toBe(200);
    const signedIn = await post("/api/auth/login", { email: customer.email, password: newPassword });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().user.isFrozen).toBe(true);
    const cookie = [signedIn.headers["set-cookie"]]
      .flat()
      .find((c) => c?.startsWith("sid="))!
      .split(";")[0]!;
    expect((await post("/api/transfer/request", TRANSFER, cookie)).statusCode).toBe(403);

    // Staff lift the freeze: customers cannot, and it is audited.
    const path = `/api/admin/users/${customer.user.id}/unfreeze`;
    expect((await post(path, undefined, cookie)).statusCode).toBe(403);
    expect((await post(path)).statusCode).toBe(401);
    // Maker-checker (decision 007): the request waits for a second compliance member; the freeze holds until
    // then.
    const asked = await post(path, { reason: "Spoke to the customer on the phone" }, admin.cookie);
    expect(asked.statusCode, asked.body).toBe(202);
    expect((await get("/api/auth/user", cookie)).json().isFrozen).toBe(true);
    const checker = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
    const lifted = await post(`/api/admin/approvals/${asked.json().approval.id}/approve`, {}, checker.cookie);
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json().result.message).toBe(SECURITY_MESSAGES.unfrozen);
    const audit = await t.database.query<{ actor_id: string }>(
      "select actor_id from audit_log where action = 'user.unfreeze' and target_id = $1",
      [customer.user.id],
    );
    expect(audit).toEqual([{ actor_id: admin.user.id }]);
    const twice = await post(path, undefined, admin.cookie);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().notFrozen).toBe(true);
    expect(
      (await post(`/api/admin/users/${crypto.randomUUID()}/unfreeze`, undefined, admin.cookie)).statusCode,
    ).toBe(404);
    expect((await get("/api/auth/user", cookie)).json().isFrozen).toBe(false);
    expect((await post("/api/transfer/request", TRANSFER, cookie)).statusCode).toBe(201);

    // The spent link does not freeze again.
    const used = await freeze(tokenIn(url));
    expect(used.statusCode).toBe(410);
    expect(used.json()).toMatchObject({ freezeLinkUsed: true, message: SECURITY_MESSAGES.linkUsed });
    await expectLedgerClean(t.database);
  });

  it("refuses an expired link with 410 and writes nothing", async () => {
    const customer = await fundedCustomer();
    const url = await freezeLinkFor(customer.user.id, "password_changed");
    await t.database.query(
      "update freeze_links set expires_at = now() - interval '1 second' where user_id = $1",
      [customer.user.id],
    );
    const res = await freeze(tokenIn(url));
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ freezeLinkExpired: true, message: SECURITY_MESSAGES.linkExpired });
    expect((await get("/api/auth/user", customer.cookie)).json().isFrozen).toBe(false);
  });

  it("answers garbage tokens with 400, never a 500", async () => {
    const garbage: unknown[] = [
      "",
      "x",
      "A".repeat(43),
      "A".repeat(200),
      "💥".repeat(20),
      "../../etc/passwd",
      null,
      42,
      {},
    ];
    for (const token of garbage) {
      const res = await freeze(token);
      expect(res.statusCode, JSON.stringify(token)).toBe(400);
      if (typeof token === "string" && token.length <= 200) expect(res.json().freezeLinkInvalid).toBe(true);
    }
    const tooLong = await freeze("A".repeat(201));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe(SECURITY_MESSAGES.linkInvalid);
  });

  it("freezes once when two clicks race", async () => {
    const customer = await fundedCustomer();
    const url = await freezeLinkFor(customer.user.id, "new_device");
    const results = await Promise.all([freeze(tokenIn(url)), freeze(tokenIn(url))]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(results.map((r) => r.json().alreadyFrozen).sort()).toEqual([false, true]);
    expect(
      await count("select 1 from audit_log where action = 'user.freeze' and target_id = $1", [
        customer.user.id,
      ]),
    ).toBe(1);
  });

  it("puts the link in the password-changed mail too", async () => {
    const customer = await fundedCustomer();
    await post("/api/auth/send-password-otp", undefined, customer.cookie);
    const { code } = await sink.waitForMail(customer.email, (m) => /password change code/i.test(m.subject));
    const changed = await post(
      "/api/auth/change-password",
      { currentPassword: customer.password, newPassword: "Violet-Harbour-58-compass", otpCode: code },
      customer.cookie,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const mail = await sink.waitForMail(customer.email, (m) => /password was changed/i.test(m.subject));
    const token = tokenIn(mail.text);
    expect(token).toBeDefined();
    const res = await freeze(token);
    expect(res.statusCode).toBe(200);
    const chat = await t.database.query<{ message: string }>(
      "select message from chat_messages where user_id = $1",
      [customer.user.id],
    );
    expect(chat[0]!.message).toMatch(/a password change/);
  });
});
