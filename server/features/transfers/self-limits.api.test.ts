import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
  requestTransfer,
} from "@/tests/support/money";
import { enrolTotp, stepUpWithTotp } from "@/tests/support/second-factor";
import { createTestApp, setUpTestApp } from "@/tests/support/test-app";
import {
  createVerifiedUser,
  logIn,
  type SignedInUser,
  setUpAdminUser,
  setUpVerifiedUser,
  TEST_PASSWORD,
} from "@/tests/support/users";

// The customer's own limits (decision 035), enforced by money_out_gate / money_out_limits under the
// wallet lock. The clock is the server's Date (faked below), which the route sends to the SQL functions.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "1000" });
const admin = setUpAdminUser(t);
const compliance = setUpVerifiedUser(t, { staffRoles: ["compliance"] });
const compliance2 = setUpVerifiedUser(t, { staffRoles: ["compliance"] });
const support = setUpVerifiedUser(t, { staffRoles: ["support"] });
expectLedgerCleanAfterEach(t);
afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 3_600_000;
/**
 * Moves the clock `ms` past the real now. PGlite's now() follows it too, so the customer's session ends past its
 * 12 hours like a real one would: they sign in again.
 */
async function later(who: SignedInUser, ms: number) {
  vi.useRealTimers();
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms });
  who.cookie = await logIn(t.app, who.user.email, TEST_PASSWORD);
}

const put = (who: SignedInUser, path: string, payload: unknown) =>
  t.app.inject({
    method: "PUT",
    url: `/api/transfer/self-limits/${path}`,
    headers: { cookie: who.cookie },
    payload: payload as object,
  });
const selfLimits = async (who: SignedInUser) =>
  (
    await t.app.inject({ method: "GET", url: "/api/transfer/self-limits", headers: { cookie: who.cookie } })
  ).json();
const send = (who: SignedInUser, amount: string, key?: string) =>
  requestTransfer(t.app, who, { amount }, key ?? `k-${Math.random()}`);
const funded = () => createFundedCustomer(t, admin, "1000.00");

describe("the personal daily limit", () => {
  it("lowers at once and refuses what would pass it, with a clear message", async () => {
    const customer = await funded();
    const lowered = await put(customer, "daily-limit", { dailyLimit: "100", password: TEST_PASSWORD });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(lowered.json()).toMatchObject({
      message: "Your daily limit is lowered now.",
      selfLimits: { personalDailyLimit: "$100.00", pendingRaise: null },
    });
    expect((await send(customer, "60")).statusCode).toBe(201);
    const refused = await send(customer, "50");
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      reason: "personal_daily_limit",
      personalLimitExceeded: true,
      personalDailyLimit: "$100.00",
      remainingToday: "$40.00",
      message: "This is over the daily limit you set yourself ($100.00). You can send $40.00 more today.",
    });
    expect((await send(customer, "40")).statusCode).toBe(201);
  });

  it("holds under racing requests: never more than the limit leaves, whatever the order", async () => {
    const customer = await funded();
    await put(customer, "daily-limit", { dailyLimit: "100", password: TEST_PASSWORD });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => send(customer, "30", `race-${i}`)),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 422)).toHaveLength(9);
    for (const r of results.filter((r) => r.statusCode === 422)) {
      expect(r.json().reason).toBe("personal_daily_limit");
    }
    const [row] = await t.database.query(
      "select coalesce(sum(amount), 0)::int as total from transfer_requests where user_id = $1",
      [customer.user.id],
    );
    expect(row!.total).toBe(9_000);
  });

  it("raises only after 24 hours, announced by e-mail; lowering cancels a waiting raise", async () => {
    const customer = await funded();
    await put(customer, "daily-limit", { dailyLimit: "50", password: TEST_PASSWORD });
    const raised = await put(customer, "daily-limit", { dailyLimit: "500", password: TEST_PASSWORD });
    expect(raised.statusCode).toBe(200);
    expect(raised.json().message).toBe(
      "Your daily limit will rise in 24 hours. We sent you an e-mail about it.",
    );
    expect(raised.json().selfLimits).toMatchObject({
      personalDailyLimit: "$50.00",
      pendingRaise: { dailyLimit: "$500.00", dailyLimitCents: 50_000 },
    });
    const mail = await t.database.query(
      "select subject from mail_outbox where to_address = $1 and kind = 'daily_limit_raised'",
      [customer.user.email],
    );
    expect(mail).toEqual([{ subject: expect.stringContaining("$500.00") }]);
    expect((await send(customer, "60")).json().reason).toBe("personal_daily_limit");

    await later(customer, 23 * HOUR);
    const r23 = await send(customer, "60");
    expect(r23.json().reason, r23.body).toBe("personal_daily_limit");
    await later(customer, 24 * HOUR + 60_000);
    expect((await selfLimits(customer)).personalDailyLimit).toBe("$500.00");
    expect((await send(customer, "60")).statusCode).toBe(201);
    vi.useRealTimers();

    // A waiting raise to no limit at all, then lowered again: the lower one applies at once, the raise is gone.
    const other = await funded();
    await put(other, "daily-limit", { dailyLimit: "50", password: TEST_PASSWORD });
    await put(other, "daily-limit", { dailyLimit: null, password: TEST_PASSWORD });
    expect((await selfLimits(other)).pendingRaise).toMatchObject({ dailyLimit: null });
    const lower = await put(other, "daily-limit", { dailyLimit: "20", password: TEST_PASSWORD });
    expect(lower.json().selfLimits).toMatchObject({ personalDailyLimit: "$20.00", pendingRaise: null });
    await later(other, 25 * HOUR);
    expect((await selfLimits(other)).personalDailyLimit).toBe("$20.00");
  });

  it.each([
    [{ dailyLimit: "2500" }, "Your own daily limit must be less than the bank's $2,000"],
    [{ dailyLimit: "0" }, "Your own daily limit must be more than $0"],
    [{ dailyLimit: "-5" }, "Your own daily limit must be more than $0"],
    [{ dailyLimit: "1.234" }, "Enter a dollar amount with at most 2 decimals"],
    [{ dailyLimit: ["1"] }, /dailyLimit/i],
    [{ dailyLimit: "10", userId: "someone-else" }, /unrecognized|userId/i],
    [{}, /dailyLimit/i],
  ])("refuses %j with a 400", async (body, message) => {
    const customer = await funded();
    const res = await put(customer, "daily-limit", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it("refuses staff, who never bank", async () => {
    const res = await put(admin, "daily-limit", { dailyLimit: "10", password: TEST_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json().reason).toBe("staff_account");
  });
});

describe("Block crypto sends", () => {
  it("refuses every transfer while on and through the whole cooldown, which nothing shortens", async () => {
    const customer = await funded();
    const on = await put(customer, "send-block", { on: true, cooldown: "7 days", password: TEST_PASSWORD });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().selfLimits).toMatchObject({ sendsBlocked: true, blockOn: true, cooldown: "7 days" });

    const blocked = await send(customer, "5");
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({
      reason: "sends_blocked",
      sendsBlocked: true,
      message:
        "You blocked crypto sends. Turn the block off in Settings; sending opens again after its cooldown.",
    });

    // While on, the cooldown may only grow.
    const shorter = await put(customer, "send-block", {
      on: true,
      cooldown: "24 hours",
      password: TEST_PASSWORD,
    });
    expect(shorter.statusCode).toBe(409);
    expect(shorter.json()).toMatchObject({
      reason: "cooldown_shorter",
      message: "While sends are blocked, the cooldown can only be made longer",
    });

    const off = await put(customer, "send-block", { on: false });
    expect(off.statusCode).toBe(200);
    const until = new Date(off.json().selfLimits.blockedUntil).getTime();
    expect(until).toBeGreaterThan(Date.now() + 7 * 24 * HOUR - 60_000);
    const cooling = await send(customer, "5");
    expect(cooling.statusCode).toBe(403);
    expect(cooling.json()).toMatchObject({
      reason: "sends_blocked",
      blockedUntil: new Date(until).toISOString(),
    });
    // One time in one zone: the refusal words the end exactly as Settings shows it, in New York time with "ET".
    const shown = off.json().selfLimits.blockedUntilText;
    expect(shown).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M ET$/);
    expect((await selfLimits(customer)).blockedUntilText).toBe(shown);
    expect(cooling.json().message).toBe(
      `You blocked crypto sends. The block ends on ${shown}, and no one can end it sooner.`,
    );

    // Switching it off again, or on and off with a shorter cooldown, never brings the end closer.
    await put(customer, "send-block", { on: false });
    await put(customer, "send-block", { on: true, cooldown: "24 hours", password: TEST_PASSWORD });
    const again = await put(customer, "send-block", { on: false });
    expect(new Date(again.json().selfLimits.blockedUntil).getTime()).toBe(until);

    // Staff may only write a note: the note route takes nothing else, and no admin route changes the block.
    const note = await t.app.inject({
      method: "POST",
      url: `/api/admin/users/${customer.user.id}/self-limit-notes`,
      headers: { cookie: admin.cookie },
      payload: { note: "Customer asked to lift the block early; explained the cooldown." },
    });
    expect(note.statusCode, note.body).toBe(201);
    expect(note.json().selfLimits.blockedUntil).toBe(new Date(until).toISOString());
    const sneaky = await t.app.inject({
      method: "POST",
      url: `/api/admin/users/${customer.user.id}/self-limit-notes`,
      headers: { cookie: admin.cookie },
      payload: { note: "lift", blockedUntil: null, blockOn: false },
    });
    expect(sneaky.statusCode).toBe(400);
    // The customer's own routes, with the admin's cookie, are refused (staff never bank) and touch nothing.
    expect((await put(admin, "send-block", { on: false })).statusCode).toBe(403);

    // Not even a direct write: the table's trigger refuses any shortening or removal.
    await expect(
      t.database.query("update customer_limits set blocked_until = now() where user_id = $1", [
        customer.user.id,
      ]),
    ).rejects.toThrow(/cannot be shortened/);
    await expect(
      t.database.query("delete from customer_limits where user_id = $1", [customer.user.id]),
    ).rejects.toThrow(/cannot be removed/);
    expect((await selfLimits(customer)).blockedUntil).toBe(new Date(until).toISOString());

    await later(customer, 7 * 24 * HOUR - HOUR);
    expect((await send(customer, "5")).statusCode).toBe(403);
    await later(customer, 7 * 24 * HOUR + 60_000);
    expect((await send(customer, "5")).statusCode).toBe(201);
  });

  it("blocks a switch-off of an on block whose full cooldown is not written, even by hand", async () => {
    const customer = await funded();
    await put(customer, "send-block", { on: true, cooldown: "12 months", password: TEST_PASSWORD });
    await expect(
      t.database.query(
        "update customer_limits set block_on = false, blocked_until = now() + interval '1 day' where user_id = $1",
        [customer.user.id],
      ),
    ).rejects.toThrow(/full cooldown/);
    await expect(
      t.database.query("update customer_limits set block_cooldown = '24 hours' where user_id = $1", [
        customer.user.id,
      ]),
    ).rejects.toThrow(/cannot be shortened/);
    expect((await selfLimits(customer)).blockOn).toBe(true);
  });

  it.each([
    [{ on: true }, "Choose how long the block lasts after you turn it off"],
    [{ on: true, cooldown: "1 minute" }, /cooldown/i],
    [{ on: "yes", cooldown: "7 days" }, /on/i],
    [{ on: false, blockedUntil: "2020-01-01T00:00:00Z" }, /unrecognized|blockedUntil/i],
  ])("refuses %j with a 400", async (body, message) => {
    const customer = await funded();
    const res = await put(customer, "send-block", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it("goes with its customer: deleting the account removes a block the customer set", async () => {
    const leaving = await createVerifiedUser(t.database);
    expect(
      (await put(leaving, "send-block", { on: true, cooldown: "12 months", password: TEST_PASSWORD }))
        .statusCode,
    ).toBe(200);
    await t.database.query("delete from users where id = $1", [leaving.user.id]);
    expect(
      await t.database.query("select 1 from customer_limits where user_id = $1", [leaving.user.id]),
    ).toEqual([]);
  });

  it("answers 404 for a note on an unknown or staff account, and 403 to a customer", async () => {
    const customer = await funded();
    const note = (userId: string, who: SignedInUser) =>
      t.app.inject({
        method: "POST",
        url: `/api/admin/users/${userId}/self-limit-notes`,
        headers: { cookie: who.cookie },
        payload: { note: "x" },
      });
    expect((await note("00000000-0000-4000-8000-000000000000", admin)).statusCode).toBe(404);
    expect((await note(admin.user.id, admin)).statusCode).toBe(404);
    expect((await note(customer.user.id, customer)).statusCode).toBe(403);
    const stranger = await createVerifiedUser(t.database);
    expect((await selfLimits(stranger)).sendsBlocked).toBe(false);
  });
});

describe("a fresh proof before anything that keeps money in (decision 047)", () => {
  it("asks a customer without a second factor for the password, and changes nothing without it", async () => {
    const customer = await funded();
    const bare = await put(customer, "send-block", { on: true, cooldown: "12 months" });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({
      reason: "password_confirm_required",
      passwordConfirmRequired: true,
      message: "Enter your password to confirm this change",
    });
    const wrong = await put(customer, "send-block", {
      on: true,
      cooldown: "12 months",
      password: "guess-1234",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ reason: "password_wrong", message: "Password is incorrect" });
    const lower = await put(customer, "daily-limit", { dailyLimit: "0.01" });
    expect(lower.statusCode).toBe(403);
    expect(lower.json().reason).toBe("password_confirm_required");
    expect(await selfLimits(customer)).toMatchObject({
      sendsBlocked: false,
      blockOn: false,
      personalDailyLimit: null,
    });
    expect((await send(customer, "5")).statusCode).toBe(201);

    // What loosens nothing needs no proof: a raise (it waits 24 hours), switching a block that is not on off.
    expect((await put(customer, "daily-limit", { dailyLimit: null })).statusCode).toBe(200);
    expect((await put(customer, "send-block", { on: false })).statusCode).toBe(200);

    const confirmed = await put(customer, "daily-limit", { dailyLimit: "0.01", password: TEST_PASSWORD });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().selfLimits.personalDailyLimit).toBe("$0.01");
  });

  it("takes five password tries in 15 minutes, whichever route or session sends them", async () => {
    const strict = await createTestApp();
    try {
      const customer = await createApprovedCustomer(strict.database);
      const tryPassword = (path: string, body: object) =>
        strict.app.inject({
          method: "PUT",
          url: `/api/transfer/self-limits/${path}`,
          headers: { cookie: customer.cookie },
          payload: body as object,
        });
      const codes = [];
      for (let i = 0; i < 3; i++)
        codes.push(
          (await tryPassword("send-block", { on: true, cooldown: "7 days", password: `x${i}` })).statusCode,
        );
      for (let i = 0; i < 3; i++)
        codes.push((await tryPassword("daily-limit", { dailyLimit: "5", password: `y${i}` })).statusCode);
      expect(codes).toEqual([400, 400, 400, 400, 400, 429]);
      // The right password too, until the window passes; changes that need none still go through.
      expect(
        (await tryPassword("send-block", { on: true, cooldown: "7 days", password: TEST_PASSWORD }))
          .statusCode,
      ).toBe(429);
      expect((await tryPassword("send-block", { on: false })).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it("asks a customer with an authenticator for a fresh step-up, which a password does not replace", async () => {
    const customer = await funded();
    const { secret } = await enrolTotp(t.app, customer.cookie);
    const stale = await put(customer, "send-block", {
      on: true,
      cooldown: "12 months",
      password: TEST_PASSWORD,
    });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ reason: "step_up_required", stepUpRequired: true });
    const lower = await put(customer, "daily-limit", { dailyLimit: "10" });
    expect(lower.json().reason).toBe("step_up_required");
    expect((await selfLimits(customer)).blockOn).toBe(false);

    await stepUpWithTotp(t.app, t.database, { id: customer.user.id, cookie: customer.cookie, secret });
    const on = await put(customer, "send-block", { on: true, cooldown: "24 hours" });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().selfLimits).toMatchObject({ blockOn: true, cooldown: "24 hours" });
    expect((await put(customer, "daily-limit", { dailyLimit: "10" })).statusCode).toBe(200);
  });
});

const undoLinkOf = async (email: string) => {
  const mails = await t.database.query(
    "select subject, text_body from mail_outbox where to_address = $1 and kind = 'send_block_on' order by created_at",
    [email],
  );
  const text = String(mails.at(-1)?.text_body ?? "");
  const url = /This wasn't me: (\S+)/.exec(text)?.[1] ?? "";
  return { mails, text, url, token: new URLSearchParams(url.split("#")[1] ?? "").get("token") ?? "" };
};
const undo = (token: unknown) =>
  t.app.inject({ method: "POST", url: "/api/account/send-block/undo", payload: { token } });
const rowOf = async (userId: string) =>
  (
    await t.database.query("select block_on, blocked_until from customer_limits where user_id = $1", [userId])
  )[0];

describe('the "This wasn\'t me" link for a block (decision 047)', () => {
  it("e-mails a link on switching the block on that undoes it, cooldown included, and signs every device out", async () => {
    const customer = await funded();
    expect(
      (await put(customer, "send-block", { on: true, cooldown: "12 months", password: TEST_PASSWORD })).json()
        .message,
    ).toBe("Crypto sends are blocked. We sent you an e-mail about it.");
    // Lengthening a block that is on sends nothing more.
    await put(customer, "send-block", { on: true, cooldown: "12 months", password: TEST_PASSWORD });
    const { mails, text, url, token } = await undoLinkOf(customer.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Pillar: crypto sends are blocked on your account");
    expect(text).toContain("Payments by $tag are not blocked.");
    expect(text).toContain("The link works once, for 6 hours.");
    expect(url).toMatch(/\/this-wasnt-me#for=send-block&token=[A-Za-z0-9_-]{43}$/);
    // Switched off, it cools down for 12 months: the undo ends that too.
    await put(customer, "send-block", { on: false });
    expect((await send(customer, "5")).json().reason).toBe("sends_blocked");

    const undone = await undo(token);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().message).toMatch(/^The block on crypto sends is undone\./);
    expect(await rowOf(customer.user.id)).toMatchObject({ block_on: false, blocked_until: null });
    // Whoever switched it on had this session: it is gone, and signing in needs a new password.
    const signedOut = await t.app.inject({
      method: "GET",
      url: "/api/transfer/self-limits",
      headers: { cookie: customer.cookie },
    });
    expect(signedOut.statusCode).toBe(401);
    const [user] = await t.database.query(
      "select password_reset_required, (select count(*)::int from sessions s where s.user_id = u.id) as sessions from users u where id = $1",
      [customer.user.id],
    );
    expect(user).toMatchObject({ password_reset_required: true, sessions: 0 });
    const [audit] = await t.database.query(
      "select action, actor_id from audit_log where target_id = $1 and action = 'self_limits.block_undone'",
      [customer.user.id],
    );
    expect(audit).toMatchObject({ action: "self_limits.block_undone", actor_id: null });
    // Money moves again once the customer has a new password.
    await t.database.query("update users set password_reset_required = false where id = $1", [
      customer.user.id,
    ]);
    customer.cookie = await logIn(t.app, customer.user.email, TEST_PASSWORD);
    expect((await send(customer, "5")).statusCode).toBe(201);

    const again = await undo(token);
    expect(again.statusCode).toBe(410);
    expect(again.json().reason).toBe("freeze_link_used");
  });

  it("restores a cooldown that was running before, and refuses a link past its hours or not ours", async () => {
    const customer = await funded();
    await put(customer, "send-block", { on: true, cooldown: "24 hours", password: TEST_PASSWORD });
    const cooling = await put(customer, "send-block", { on: false });
    const until = cooling.json().selfLimits.blockedUntil;
    await put(customer, "send-block", { on: true, cooldown: "7 days", password: TEST_PASSWORD });
    const links = await undoLinkOf(customer.user.email);
    expect(links.mails).toHaveLength(2);
    expect((await undo(links.token)).statusCode).toBe(200);
    const row = await rowOf(customer.user.id);
    expect(row).toMatchObject({ block_on: false });
    expect(new Date(row!.blocked_until as string).toISOString()).toBe(until);

    const late = await funded();
    await put(late, "send-block", { on: true, cooldown: "24 hours", password: TEST_PASSWORD });
    const old = await undoLinkOf(late.user.email);
    await t.database.query(
      "update send_block_undo_links set expires_at = now() - interval '1 second' where user_id = $1",
      [late.user.id],
    );
    const expired = await undo(old.token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().reason).toBe("freeze_link_expired");
    expect((await selfLimits(late)).blockOn).toBe(true);

    for (const token of ["x".repeat(43), "short", 42, null]) {
      const res = await undo(token);
      expect(res.statusCode, String(token)).toBe(400);
    }
    expect((await selfLimits(late)).blockOn).toBe(true);
  });
});

describe("the compliance override (decision 047)", () => {
  const lift = (who: SignedInUser, userId: string, body: object) =>
    t.app.inject({
      method: "POST",
      url: `/api/admin/users/${userId}/lift-send-block`,
      headers: { cookie: who.cookie },
      payload: body,
    });
  const decide = (who: SignedInUser, id: string, action: "approve" | "reject", reason?: string) =>
    t.app.inject({
      method: "POST",
      url: `/api/admin/approvals/${id}/${action}`,
      headers: { cookie: who.cookie },
      payload: reason ? { reason } : {},
    });
  const body = {
    reason: "Customer says a former partner set the block on a shared laptop",
    identityCheck: "Video call: matched the licence photo and date of birth on file",
  };

  it("lifts a block and its cooldown only when a second compliance member approves", async () => {
    const customer = await funded();
    await put(customer, "send-block", { on: true, cooldown: "12 months", password: TEST_PASSWORD });
    await put(customer, "send-block", { on: false });

    // Compliance reads the block (support does not) before proposing.
    const read = (who: SignedInUser) =>
      t.app.inject({
        method: "GET",
        url: `/api/admin/users/${customer.user.id}/self-limits`,
        headers: { cookie: who.cookie },
      });
    expect((await read(compliance)).json()).toMatchObject({ sendsBlocked: true, blockOn: false });
    expect((await read(support)).statusCode).toBe(403);

    const proposed = await lift(compliance, customer.user.id, body);
    expect(proposed.statusCode, proposed.body).toBe(202);
    const approval = proposed.json().approval;
    expect(approval).toMatchObject({ kind: "send_block_lift", status: "pending", reason: body.reason });
    expect(approval.summary).toContain(body.identityCheck);
    // Nothing changes until a second member approves; one pending lift per customer.
    expect((await selfLimits(customer)).sendsBlocked).toBe(true);
    expect((await lift(compliance2, customer.user.id, body)).json().reason).toBe("approval_pending");

    // One member alone cannot: the maker is refused as checker, support and finance may not decide it.
    const self = await decide(compliance, approval.id, "approve");
    expect(self.statusCode).toBe(403);
    expect(self.json().reason).toBe("self_approval");
    expect((await decide(support, approval.id, "approve")).statusCode).toBe(403);
    expect((await selfLimits(customer)).sendsBlocked).toBe(true);

    const approved = await decide(compliance2, approval.id, "approve");
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await rowOf(customer.user.id)).toMatchObject({ block_on: false, blocked_until: null });
    expect((await send(customer, "5")).statusCode).toBe(201);
    expect((await decide(compliance2, approval.id, "approve")).statusCode).toBe(409);

    const [audit] = await t.database.query(
      "select actor_id, after from audit_log where target_id = $1 and action = 'self_limits.block_lifted'",
      [customer.user.id],
    );
    expect(audit).toMatchObject({ actor_id: compliance.user.id });
    expect(audit!.after).toMatchObject({ identityCheck: body.identityCheck, approvalId: approval.id });
    const access = await t.app.inject({
      method: "GET",
      url: "/api/account/data-access",
      headers: { cookie: customer.cookie },
    });
    expect(access.body).toContain("Lifted the block on crypto sends you set, after checking your identity");
  });

  it("refuses a lift with no reason or identity check, of no block, for others than compliance", async () => {
    const customer = await funded();
    expect((await lift(compliance, customer.user.id, body)).json()).toMatchObject({
      reason: "not_sends_blocked",
      message: "Crypto sends are not blocked on this account",
    });
    await put(customer, "send-block", { on: true, cooldown: "30 days", password: TEST_PASSWORD });
    for (const bad of [
      { reason: body.reason },
      { identityCheck: body.identityCheck },
      { ...body, identityCheck: "   " },
      { ...body, reason: "x".repeat(501) },
      { ...body, blockedUntil: null },
    ]) {
      expect((await lift(compliance, customer.user.id, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await lift(support, customer.user.id, body)).statusCode).toBe(403);
    expect((await lift(customer, customer.user.id, body)).statusCode).toBe(403);
    expect((await lift(compliance, admin.user.id, body)).statusCode).toBe(404);
    expect((await lift(compliance, "00000000-0000-4000-8000-000000000000", body)).statusCode).toBe(404);

    // A rejected lift changes nothing.
    const proposed = await lift(compliance, customer.user.id, body);
    expect(proposed.statusCode).toBe(202);
    const rejected = await decide(compliance2, proposed.json().approval.id, "reject", "Could not reach them");
    expect(rejected.statusCode).toBe(200);
    expect((await selfLimits(customer)).blockOn).toBe(true);
  });
});
