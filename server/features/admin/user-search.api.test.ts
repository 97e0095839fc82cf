import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { formatMoney } from "@/contract/money";
import { accountRequests, depositAddresses, savedRecipients } from "@/server/db/schema";
import { foldAdminStats } from "@/server/features/admin/admin-stats";
import { SEARCH_CANDIDATE_CAP } from "@/server/lib/customer-search";
import {
  createApprovedCustomer,
  ETH_ADDRESS,
  expectLedgerClean,
  fundCustomer,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser, uniqueSuffix } from "@/tests/support/users";

// The back-office user search by every shape it knows (decision 061): each finds its customer, never a
// bystander, and pages through its matches by keyset whether they come from the indexes or from the walk.

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t, { staffRoles: ["owner"] });

const get = (url: string) => t.app.inject({ method: "GET", url, headers: { cookie: admin.cookie } });
const ids = async (q: string) => {
  const res = await get(`/api/admin/users?q=${encodeURIComponent(q)}&limit=50`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { id: string }[]).map((u) => u.id);
};

/** Every page of a search, following nextCursor; each page at most `limit` rows. */
async function walk(q: string, limit: number) {
  const found: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await get(
      `/api/admin/users?q=${encodeURIComponent(q)}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { items: { id: string }[]; nextCursor: string | null };
    expect(body.items.length).toBeLessThanOrEqual(limit);
    found.push(...body.items.map((u) => u.id));
    cursor = body.nextCursor;
    pages++;
  } while (cursor && pages < 100);
  return { found, pages };
}

const newestFirst = async (where: string, params: unknown[]) =>
  (
    await t.database.query<{ id: string }>(
      `select id from users where ${where} order by created_at desc, id desc`,
      params,
    )
  ).map((r) => r.id);

async function accountNumberOf(customer: SignedInUser): Promise<string> {
  const [row] = await t.database.query<{ account_number: string }>(
    "select account_number from account_requests where user_id = $1",
    [customer.user.id],
  );
  return row!.account_number;
}

describe("user search shapes", () => {
  it("finds a name fragment, an e-mail and a $tag, and not a bystander", async () => {
    const marker = uniqueSuffix()
      .replace(/[^a-z0-9]/gi, "")
      .slice(-6);
    const target = await createVerifiedUser(t.database, { lastName: `Quist${marker}ova` });
    const bystander = await createVerifiedUser(t.database, { lastName: "Quistless" });
    expect(await ids(`ist${marker}ov`)).toEqual([target.user.id]);
    expect(await ids(`ada quist${marker}`)).toEqual([target.user.id]);
    expect(await ids(target.email.toUpperCase())).toEqual([target.user.id]);
    expect(await ids(`$${target.user.pillarTag}`)).toEqual([target.user.id]);
    expect(await ids(`Quist${marker}`)).not.toContain(bystander.user.id);
    expect(await ids(`nobody${marker}xyz`)).toEqual([]);
    // A whole e-mail and a $tag name one account: not another whose address or tag merely contains them.
    const longer = await createVerifiedUser(t.database, {
      email: `x${target.email}`,
      pillarTag: `${target.user.pillarTag}x`,
    });
    expect(await ids(target.email)).toEqual([target.user.id]);
    expect(await ids(`$${target.user.pillarTag}`)).toEqual([target.user.id]);
    expect(await ids(target.user.pillarTag)).toEqual([longer.user.id, target.user.id]);
  });

  it("finds the last four digits or the whole account number, and not a customer whose number differs", async () => {
    const target = await createApprovedCustomer(t.database);
    const other = await createApprovedCustomer(t.database);
    const number = await accountNumberOf(target);
    // The other customer's number is made to differ in its last four (the random numbers could share them).
    await t.database.db
      .update(accountRequests)
      .set({
        accountNumber: `${number.slice(0, 4)}${(Number(number.slice(4, 5)) + 1) % 10}${number.slice(5, 8)}${(Number(number.slice(8)) + 1) % 10}`,
      })
      .where(eq(accountRequests.userId, other.user.id));
    expect(await ids(number.slice(-4))).toContain(target.user.id);
    expect(await ids(number.slice(-4))).not.toContain(other.user.id);
    expect(await ids(number)).toEqual([target.user.id]);
  });

  it("finds a deposit address, a saved recipient's address and an address paid to, in any case", async () => {
    const depositor = await createVerifiedUser(t.database);
    const saver = await createVerifiedUser(t.database);
    const bystander = await createVerifiedUser(t.database);
    const deposit = `0x${uniqueSuffix()
      .replace(/[^0-9a-f]/g, "")
      .padEnd(40, "a")
      .slice(0, 40)}`;
    const saved = `0x${uniqueSuffix()
      .replace(/[^0-9a-f]/g, "")
      .padEnd(40, "b")
      .slice(0, 40)}`;
    await t.database.db.insert(depositAddresses).values({ userId: depositor.user.id, address: deposit });
    await t.database.db.insert(savedRecipients).values({
      userId: saver.user.id,
      name: "Cold wallet",
      address: saved.toUpperCase().replace("0X", "0x"),
    });
    await t.database.db.insert(savedRecipients).values({
      userId: bystander.user.id,
      name: "Elsewhere",
      address: ETH_ADDRESS.toLowerCase().replace("52", "53"),
    });
    expect(await ids(deposit.toUpperCase().replace("0X", "0x"))).toEqual([depositor.user.id]);
    expect(await ids(saved)).toEqual([saver.user.id]);

    const payer = await createApprovedCustomer(t.database);
    await fundCustomer(t, admin, payer.user.id, "50.00");
    const sent = await requestTransfer(t.app, payer, { amount: "10.00" });
    expect(sent.statusCode, sent.body).toBe(201);
    const paidTo = await ids(ETH_ADDRESS);
    expect(paidTo).toContain(payer.user.id);
    expect(paidTo).not.toContain(bystander.user.id);
    await expectLedgerClean(t.database);
  });
});

describe("paging through matches", () => {
  it("pages a rare match found through the indexes, each match once, newest first", async () => {
    const marker = `Rare${uniqueSuffix()
      .replace(/[^a-z0-9]/gi, "")
      .slice(-6)}`;
    for (let i = 0; i < 7; i++) await createVerifiedUser(t.database, { lastName: `${marker}${i}` });
    await createVerifiedUser(t.database, { lastName: "Common" });
    const { found, pages } = await walk(marker, 3);
    expect(pages).toBe(3);
    expect(found).toEqual(await newestFirst("last_name like $1", [`${marker}%`]));
  });

  it("pages a match too frequent for the candidate cap by walking the created_at index", async () => {
    const marker = `Freq${uniqueSuffix()
      .replace(/[^a-z0-9]/gi, "")
      .slice(-6)}`;
    const many = SEARCH_CANDIDATE_CAP + 50;
    await t.database.query(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified, created_at)
       select $1 || g || '@example.com', 'Bulk', $1 || g, $1 || '_' || g, 'x', true,
         now() - g * interval '1 second'
       from generate_series(1, $2::int) g`,
      [marker.toLowerCase(), many],
    );
    const { found, pages } = await walk(marker, 200);
    expect(pages).toBe(Math.ceil(many / 200));
    expect(found).toHaveLength(many);
    expect(found).toEqual(await newestFirst("last_name ilike $1", [`${marker}%`]));
  });
});

describe("admin stats", () => {
  it("count each write exactly, before and after the deltas are folded", async () => {
    const count = async () =>
      (
        await t.database.query<{ customers: number; accounts: number; money: string; history: number }>(
          `select (select count(*)::int from users where not is_admin) as customers,
             (select count(*)::int from account_requests where status = 'approved' and superseded_at is null) as accounts,
             (select coalesce(sum(balance), 0)::text from ledger_accounts where kind = 'wallet') as money,
             (select count(*)::int from transactions) as history`,
        )
      )[0]!;
    const stats = async () => (await get("/api/admin/stats")).json();
    const before = await stats();
    const customer = await createApprovedCustomer(t.database);
    await fundCustomer(t, admin, customer.user.id, "25.00");
    const after = await stats();
    expect(after.totalUsers).toBe(before.totalUsers + 1);
    expect(after.activeAccounts).toBe(before.activeAccounts + 1);
    expect(after.transactions).toBeGreaterThan(before.transactions);
    const truth = await count();
    expect([after.totalUsers, after.activeAccounts, after.transactions]).toEqual([
      truth.customers,
      truth.accounts,
      truth.history,
    ]);
    expect(after.totalBalance).toBe(formatMoney(BigInt(truth.money)));

    const folded = await foldAdminStats(t.database.db);
    expect(folded.done).toBeGreaterThan(0);
    expect(await t.database.query("select 1 from admin_stats_deltas")).toEqual([]);
    expect(await stats()).toEqual(after);

    // A deletion (cascading to the account request) takes the customer back out.
    await t.database.query("delete from users where id = $1", [customer.user.id]);
    const gone = await stats();
    expect(gone.totalUsers).toBe(after.totalUsers - 1);
    expect(gone.activeAccounts).toBe(after.activeAccounts - 1);
    expect(gone.totalUsers).toBe((await count()).customers);
  });
});
