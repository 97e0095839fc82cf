import { describe, expect, it } from "vitest";
import { CLOSURE_BLOCKER_MESSAGES } from "@/contract/closure";
import { closeSavings } from "@/server/features/savings/close-savings";
import { accrueInterestThrough } from "@/server/features/savings/interest";
import { moveSavings } from "@/server/features/savings/move-savings";
import { openSavings } from "@/server/features/savings/savings";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
  fundCustomer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Closing savings (decision 068): the interest owed brought up to date and paid, the whole balance
// moved to checking in one call, once; every refusal; a race with moves; and the whole account's closure, which
// waits for savings to be emptied. Every test ends with the ledger verified.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

let keyCounter = 0;
const close = (who: SignedInUser, key: string | null = `close-${++keyCounter}`) =>
  t.app.inject({
    method: "DELETE",
    url: "/api/savings",
    headers: { cookie: who.cookie, ...(key === null ? {} : { "idempotency-key": key }) },
  });
const open = (who: SignedInUser) =>
  t.app.inject({ method: "POST", url: "/api/savings", headers: { cookie: who.cookie } });
const move = (who: SignedInUser, direction: string, amount: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/savings/moves",
    headers: { cookie: who.cookie, "idempotency-key": `move-${++keyCounter}` },
    payload: { direction, amount },
  });
const overview = async (who: SignedInUser) =>
  (await t.app.inject({ method: "GET", url: "/api/savings", headers: { cookie: who.cookie } })).json();
const available = async (who: SignedInUser) =>
  (await t.app.inject({ method: "GET", url: "/api/account/summary", headers: { cookie: who.cookie } })).json()
    .availableBalance as string;
const cents = (amount: string) => Math.round(Number(amount.replace(/[$,]/g, "")) * 100);

/**
 * A day's interest in micros on `balance` cents at 2.5 % APY in a month of `monthDays` days of 2026: decision 068's
 * formula restated here, so the test does not read the function it checks.
 */
async function dayMicros(balance: number, monthDays: number): Promise<number> {
  const [row] = await t.database.query<{ micros: string }>(
    `select floor($1::numeric * 10000 * ((power(1.025::numeric, $2::numeric / 365) - 1) / $2))::text as micros`,
    [balance, monthDays],
  );
  return Number(row!.micros);
}

describe("closing savings", () => {
  it("pays the interest owed through yesterday, moves everything to checking, and lets the customer open again", async () => {
    // First in this file: the accrual below runs for every account, and none of the later tests' exists yet.
    const customer = await createApprovedCustomer(t.database);
    await fundCustomer(t, admin, customer.user.id, "1000.00");
    const at = (iso: string) => new Date(iso);
    await openSavings(t.database.db, customer.user.id, at("2026-09-20T16:00:00Z"));
    await moveSavings(
      t.database.db,
      customer.user.id,
      { direction: "to_savings", amount: "1000" },
      "in",
      at("2026-09-20T16:00:00Z"),
    );
    // The job fell behind: September accrued to the 25th only, nothing credited.
    await accrueInterestThrough(t.database.db, "2026-09-25");
    await moveSavings(
      t.database.db,
      customer.user.id,
      { direction: "to_checking", amount: "400" },
      "out",
      at("2026-10-10T16:00:00Z"),
    );

    // Closed at noon on 20 October (New York): September is finished and credited on its last day, October's 1st
    // to 19th accrue, and October's whole cents are paid now.
    const closed = await closeSavings(t.database.db, customer.user.id, "close", at("2026-10-20T16:00:00Z"));
    const september = 11 * (await dayMicros(100_000, 30));
    const septemberCents = Math.floor(september / 10_000);
    const october =
      (september % 10_000) +
      9 * (await dayMicros(100_000 + septemberCents, 31)) +
      10 * (await dayMicros(60_000 + septemberCents, 31));
    const octoberCents = Math.floor(october / 10_000);
    const moved = 60_000 + septemberCents + octoberCents;
    expect(septemberCents).toBeGreaterThan(0);
    expect(octoberCents).toBeGreaterThan(0);
    expect(closed.statusCode).toBe(200);
    expect(closed.body).toMatchObject({
      message: "Savings account closed: its money is in Checking",
      closing: { movedCents: moved, interestCents: septemberCents + octoberCents },
    });

    const months = await t.database.query<{ month: string; days: number; credited: number; paid_at: string }>(
      `select i.month::text as month, i.days, i.credited_cents::int as credited,
              to_char(p.created_at at time zone 'America/New_York', 'YYYY-MM-DD HH24:MI') as paid_at
         from savings_interest i left join postings p on p.entry_id = i.entry_id and p.account_id = i.account_id
        where i.account_id = $1 order by i.month`,
      [closed.body.closing.accountId],
    );
    expect(months).toEqual([
      { month: "2026-09-01", days: 11, credited: septemberCents, paid_at: "2026-09-30 23:59" },
      // October's below-the-cent remainder is given up: no November row carries it.
      { month: "2026-10-01", days: 19, credited: octoberCents, paid_at: "2026-10-20 12:00" },
    ]);

    // Checking held $400.00; it gains the rest of savings, interest included, in one history row.
    expect(cents(await available(customer))).toBe(40_000 + moved);
    expect((await overview(customer)).account).toBeNull();
    const history = (
      await t.app.inject({ method: "GET", url: "/api/transactions", headers: { cookie: customer.cookie } })
    ).json().items as { description: string; type: string; amount: string; category: string }[];
    expect(history.find((line) => line.description === "From Savings (account closed)")).toMatchObject({
      type: "credit",
      amount: (moved / 100).toFixed(2),
      category: "savings",
    });
    const closing = await t.database.query(
      "select direction, amount::int as amount from savings_moves where id = (select source_id from transactions where description = 'From Savings (account closed)' and user_id = $1)",
      [customer.user.id],
    );
    expect(closing).toEqual([{ direction: "closing", amount: moved }]);

    // The same key replays the answer; another finds nothing open.
    const replay = await close(customer, "close");
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json().closing).toMatchObject({
      movedCents: moved,
      accountId: closed.body.closing.accountId,
    });
    const twice = await close(customer);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().reason).toBe("savings_not_open");
    expect(cents(await available(customer))).toBe(40_000 + moved);

    // Told once, after the commit (the jobs room), however often the closing was replayed: a notice and an e-mail.
    await t.app.jobs.drainConsumers();
    await t.app.jobs.drainConsumers();
    const movedText = `$${(moved / 100).toFixed(2)}`;
    const interestText = `$${((septemberCents + octoberCents) / 100).toFixed(2)}`;
    expect(
      await t.database.query(
        "select title, body from notifications where user_id = $1 and title = 'Savings account closed'",
        [customer.user.id],
      ),
    ).toEqual([
      {
        title: "Savings account closed",
        body: `${movedText} moved to your checking account, ${interestText} of it interest paid at closing.`,
      },
    ]);
    const mails = await t.database.query<{ subject: string; text_body: string }>(
      "select subject, text_body from mail_outbox where to_address = $1 and kind = 'savings_closed'",
      [customer.user.email],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Pillar: Your savings account is closed");
    expect(mails[0]!.text_body).toContain(`its ${movedText} is in your checking account`);

    const reopened = await open(customer);
    expect(reopened.statusCode, reopened.body).toBe(201);
    expect(reopened.json().account.id).not.toBe(closed.body.closing.accountId);
    expect(reopened.json().account.balance.cents).toBe(0);
  });

  it("closes an empty account with nothing to move, and refuses who cannot close", async () => {
    const customer = await createApprovedCustomer(t.database);
    const none = await close(customer);
    expect(none.statusCode).toBe(409);
    expect(none.json().reason).toBe("savings_not_open");
    expect((await open(customer)).statusCode).toBe(201);

    const noKey = await close(customer, null);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().reason).toBe("idempotency_key_required");
    await t.database.query("update users set frozen_at = now() where id = $1", [customer.user.id]);
    const frozen = await close(customer);
    expect(frozen.statusCode).toBe(403);
    expect(frozen.json().reason).toBe("account_frozen");
    await t.database.query("update users set frozen_at = null where id = $1", [customer.user.id]);
    const staff = await close(admin);
    expect(staff.statusCode).toBe(403);
    expect(staff.json().reason).toBe("staff_account");
    expect((await t.app.inject({ method: "DELETE", url: "/api/savings" })).statusCode).toBe(401);
    expect((await overview(customer)).account).not.toBeNull();

    const emptied = await close(customer);
    expect(emptied.statusCode, emptied.body).toBe(200);
    expect(emptied.json().closing).toMatchObject({ moved: "$0.00", movedCents: 0, interestCents: 0 });
    expect((await overview(customer)).account).toBeNull();
    const rows = await t.database.query("select count(*)::int as n from savings_moves where user_id = $1", [
      customer.user.id,
    ]);
    expect(rows[0]).toEqual({ n: 0 });
  });

  it("keeps every cent when closing races moves both ways", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    await open(customer);
    expect((await move(customer, "to_savings", "300")).statusCode).toBe(201);
    const answers = await Promise.all([
      close(customer),
      move(customer, "to_checking", "100"),
      move(customer, "to_savings", "50"),
      close(customer),
      move(customer, "to_savings", "25"),
    ]);
    const closes = [answers[0]!, answers[3]!];
    expect(closes.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    for (const a of [answers[1]!, answers[2]!, answers[4]!])
      expect([201, 409], a.body).toContain(a.statusCode);
    // Opened today: nothing has accrued, so checking holds all $500.00 again and savings is closed.
    expect(await available(customer)).toBe("$500.00");
    expect((await overview(customer)).account).toBeNull();
    const [savings] = await t.database.query<{ balance: string }>(
      `select coalesce(sum(a.balance), 0)::text as balance from savings_accounts s
         join ledger_accounts a on a.id = s.account_id where s.user_id = $1`,
      [customer.user.id],
    );
    expect(savings).toEqual({ balance: "0" });
  });
});

describe("closing the whole account", () => {
  const closeAccount = (who: SignedInUser) =>
    t.app.inject({
      method: "POST",
      url: "/api/account/close",
      headers: { cookie: who.cookie },
      payload: { password: who.password },
    });

  it("refuses while savings hold money, and closes an empty savings account with it", async () => {
    const saver = await createFundedCustomer(t, admin, "50.00");
    await open(saver);
    expect((await move(saver, "to_savings", "50")).statusCode).toBe(201);
    const refused = await closeAccount(saver);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({
      reason: "closure_blocked",
      closureBlocker: "savings_not_empty",
      message: CLOSURE_BLOCKER_MESSAGES.savings_not_empty,
    });
    expect((await overview(saver)).account.balance.cents).toBe(5000);

    const empty = await createApprovedCustomer(t.database);
    await open(empty);
    const closed = await closeAccount(empty);
    expect(closed.statusCode, closed.body).toBe(200);
    const rows = await t.database.query(
      "select count(*)::int as n from savings_accounts where user_id = $1 and closed_at is null",
      [empty.user.id],
    );
    expect(rows[0]).toEqual({ n: 0 });
  });
});
