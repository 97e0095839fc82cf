import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// The back office at a million customers (decision 061): trigram indexes serve a fragment of a name, an e-mail or
// a $tag, exact indexes the last four digits of an account number and a saved address; admin_stats starts from a
// count of the rows already there, and statement triggers add a delta row per write after.
/** Each headline figure as admin_stats reads it (the row plus the deltas) less the figure counted live. */
const figure = (name: string, column: string, live: string) =>
  `((select ${column} from admin_stats) + (select coalesce(sum(${column}), 0) from admin_stats_deltas)
    - (${live}))::int as ${name}`;
const FIGURES = `select ${[
  figure("customers", "customers", "select count(*) from users where not is_admin"),
  figure(
    "active",
    "active_accounts",
    "select count(*) from account_requests where status = 'approved' and superseded_at is null",
  ),
  figure(
    "wallets",
    "wallet_balance",
    "select coalesce(sum(balance), 0) from ledger_accounts where kind = 'wallet'",
  ),
  figure("transactions", "transactions", "select count(*) from transactions"),
].join(", ")}`;
const EXACT = { customers: 0, active: 0, wallets: 0, transactions: 0 };
const user = (n: string, staff: string) =>
  `insert into users (email, first_name, last_name, pillar_tag, password_hash, staff_roles)
   values ('${n}@step0051.test', 'Wilhelmina', 'Quartz${n}', '${n}', 'x', '${staff}') returning id`;

const step: MigrationStep = {
  async before(db) {
    await db.query(user("wquartzstaff", "{finance}"));
    // A customer with an approved account, a funded wallet, a transaction and a saved address.
    const [customer] = await db.query<{ id: string }>(
      `with c as (${user("wquartz", "{}")}),
         a as (insert into account_requests (user_id, account_type, status, account_number)
           select id, 'personal', 'approved', '123450051' from c),
         w as (insert into ledger_accounts (code, kind, user_id, balance)
           select 'wallet:step0051', 'wallet', id, 5000 from c),
         t as (insert into transactions (user_id, type, amount, net_amount, description, status, source_type)
           select id, 'deposit', 5000, 5000, 'step 0051', 'completed', 'deposit' from c),
         r as (insert into saved_recipients (user_id, name, address)
           select id, 'Cold', '0xAbCdEf0000000000000000000000000000000051' from c)
       select id from c`,
    );
    db.shared.set("0051.customer", customer!.id);
  },
  async after(db) {
    const customer = db.shared.get("0051.customer")!;
    // The starting figures are the rows already there, every one of them (the staff member is not a customer).
    expect(await db.query("select count(*)::int as n from admin_stats_deltas")).toEqual([{ n: 0 }]);
    expect((await db.query(FIGURES))[0]).toEqual(EXACT);
    // Writes after it add deltas: the row plus the deltas stays exact.
    const [other] = await db.query<{ id: string }>(user("wquartz2", "{}"));
    await db.query(user("wquartzstaff2", "{owner}"));
    await db.query(
      "insert into account_requests (user_id, account_type, status) values ($1, 'personal', 'approved')",
      [other!.id],
    );
    await db.query("update ledger_accounts set balance = balance + 250 where code = 'wallet:step0051'");
    await db.query(
      `insert into transactions (user_id, type, amount, net_amount, description, status, source_type)
       values ($1, 'deposit', 250, 250, 'step 0051', 'completed', 'deposit')`,
      [customer],
    );
    const [deltas] = await db.query(
      `select sum(customers)::int as customers, sum(active_accounts)::int as active,
         sum(wallet_balance)::int as wallets, sum(transactions)::int as transactions, count(*)::int as rows
       from admin_stats_deltas`,
    );
    expect(deltas).toEqual({ customers: 1, active: 1, wallets: 250, transactions: 1, rows: 4 });
    expect((await db.query(FIGURES))[0]).toEqual(EXACT);

    // Each search reads its index (sequential scans off, as on a million rows) and finds the customer.
    await db.query("set local enable_seqscan = off");
    const searches: [string, string][] = [
      ["users_email_trgm_idx", "select id from users where email ilike '%quartz@step0051%'"],
      ["users_pillar_tag_trgm_idx", "select id from users where pillar_tag ilike '%quartz'"],
      [
        "users_name_trgm_idx",
        "select id from users where first_name || ' ' || last_name ilike '%mina quartzwquartz'",
      ],
      [
        "account_requests_last4_idx",
        `select user_id as id from account_requests
         where right(account_number, 4) = '0051' and account_number is not null`,
      ],
      [
        "saved_recipients_address_idx",
        `select user_id as id from saved_recipients
         where lower(address) = '0xabcdef0000000000000000000000000000000051'`,
      ],
    ];
    for (const [index, search] of searches) {
      const plan = (await db.query<{ "QUERY PLAN": string }>(`explain ${search}`)).map(
        (r) => r["QUERY PLAN"],
      );
      expect(plan.join("\n")).toContain(index);
      expect(await db.query(search)).toEqual([{ id: customer }]);
    }
  },
};
export default step;
