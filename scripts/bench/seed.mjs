// Seeds the scratch database with set-based SQL: users, wallets funded through the ledger, approved
// KYC and accounts, history, and real sessions (only the SHA-256 of each token is stored, as the app does).
import { createHash, randomBytes } from "node:crypto";
import { hash } from "@node-rs/argon2";
import pg from "pg";

export const BENCH_PASSWORD = "bench-Pillar-password-1";
/** Each user's history: 50 credits of $2,000, funded by one balanced journal entry of $100,000. */
const CREDIT_CENTS = 200_000;

export const benchEmail = (n) => `bench-${n}@bench.test`;

/**
 * `alertUsers` (numbers n of bench-<n>) are set up for the new-device-then-new-address monitoring rule
 * (server/features/monitoring/rules.ts): an account and a first device 30 days old and a second device first
 * seen an hour ago, so their first transfer of $200 or more to an address of their own raises the alert that
 * holds money.
 * @param {{ url: string, users: number, transactionsPerUser: number, sessionUsers: number, alertUsers?: number[] }} options
 */
export async function seed({ url, users, transactionsPerUser, sessionUsers, alertUsers = [] }) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Same argon2id parameters as server/lib/passwords.ts; one hash serves every bench user.
    const passwordHash = await hash(BENCH_PASSWORD, {
      algorithm: 2,
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
    });
    await client.query("begin");
    await client.query(
      `insert into users (email, first_name, last_name, pillar_tag, phone_number, password_hash, is_email_verified)
       select 'bench-' || n || '@bench.test', 'Bench', 'User ' || n, 'bench_' || n, '+1555' || lpad(n::text, 7, '0'), $2, true
       from generate_series(0, $1 - 1) n`,
      [users, passwordHash],
    );
    await client.query(`create temp table bench_users on commit drop as
      select u.id, substring(u.email from 'bench-([0-9]+)@')::int as n from users u where u.email like 'bench-%@bench.test'`);
    await client.query(`insert into ledger_accounts (code, kind, user_id, balance)
      select 'wallet:' || id, 'wallet', id, ${CREDIT_CENTS} * ${transactionsPerUser} from bench_users`);
    await client.query(`create temp table bench_entries on commit drop as
      select b.id as user_id, gen_random_uuid() as entry_id from bench_users b`);
    await client.query(`insert into journal_entries (id, kind, description, reference_type, reference_id)
      select entry_id, 'funding', 'Benchmark opening balance', 'bench', user_id::text from bench_entries`);
    await client.query(`insert into postings (entry_id, account_id, amount)
      select e.entry_id, w.id, ${CREDIT_CENTS} * ${transactionsPerUser}
        from bench_entries e join ledger_accounts w on w.user_id = e.user_id
      union all
      select e.entry_id, (select id from ledger_accounts where code = 'external_funding'), -${CREDIT_CENTS} * ${transactionsPerUser}
        from bench_entries e`);
    await client.query(`insert into kyc_applications
        (user_id, account_type, first_name, last_name, street, city, state, zip_code, address,
         ssn_ciphertext, ssn_index, ssn_last4, status, reviewed_at)
      select id, 'personal', 'Bench', 'User ' || n, '1 Bench St', 'Austin', 'TX', '73301', '1 Bench St, Austin, TX 73301',
             'bench', md5('bench-ssn-' || n), lpad((n % 10000)::text, 4, '0'), 'approved', now()
      from bench_users`);
    await client.query(`insert into account_requests
        (user_id, kyc_application_id, account_type, status, account_number, routing_number, approved_at)
      select b.id, k.id, 'personal', 'approved', (100000000 + b.n)::text, '021000021', now()
      from bench_users b join kyc_applications k on k.user_id = b.id`);
    await client.query(`insert into transactions
        (user_id, type, amount, fee, net_amount, description, category, status, source_type, entry_id, created_at, updated_at)
      select b.id, 'credit', ${CREDIT_CENTS}, 0, ${CREDIT_CENTS}, 'Benchmark credit ' || i, 'other', 'completed', 'admin',
             case when i = 1 then e.entry_id end,
             now() - make_interval(days => i), now() - make_interval(days => i)
      from bench_users b join bench_entries e on e.user_id = b.id, generate_series(1, ${transactionsPerUser}) i`);

    await client.query(
      `update users u set created_at = now() - interval '30 days'
       from bench_users b where b.id = u.id and b.n = any($1::int[])`,
      [alertUsers],
    );
    await client.query(
      `insert into known_devices (user_id, token_hash, user_agent, ip, created_at, last_seen_at)
       select b.id, md5('bench-device-' || b.n || '-' || d.age), 'pillar-bench', '127.0.0.1', now() - d.age, now() - d.age
       from bench_users b, (values (interval '30 days'), (interval '1 hour')) as d(age)
       where b.n = any($1::int[])`,
      [alertUsers],
    );

    // Real sessions: the cookie carries the token, the table only its hash (server/lib/session.ts).
    const tokens = Array.from({ length: sessionUsers }, () => randomBytes(32).toString("base64url"));
    const hashes = tokens.map((t) => createHash("sha256").update(t).digest("hex"));
    const ns = tokens.map((_, i) => i);
    await client.query(
      `insert into sessions (id_hash, user_id, user_agent, ip, expires_at)
       select s.id_hash, b.id, 'pillar-bench', '127.0.0.1', now() + interval '12 hours'
       from unnest($1::text[], $2::int[]) as s(id_hash, n) join bench_users b on b.n = s.n`,
      [hashes, ns],
    );
    await client.query("commit");
    await client.query("analyze");
    return { tokens };
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

/**
 * `count` more real sessions, spread round-robin over the seeded users (a customer may have a few tabs and
 * devices): the idle dashboards each need their own, as every tab has one stream and the app caps streams per
 * session. Answers their tokens.
 */
export async function addSessions({ url, users, count }) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tokens = Array.from({ length: count }, () => randomBytes(32).toString("base64url"));
    const hashes = tokens.map((t) => createHash("sha256").update(t).digest("hex"));
    const ns = tokens.map((_, i) => i % users);
    await client.query(
      `insert into sessions (id_hash, user_id, user_agent, ip, expires_at)
       select s.id_hash, u.id, 'pillar-bench-dashboard', '127.0.0.1', now() + interval '12 hours'
       from unnest($1::text[], $2::int[]) as s(id_hash, n)
       join users u on u.email = 'bench-' || s.n || '@bench.test'`,
      [hashes, ns],
    );
    return tokens;
  } finally {
    await client.end();
  }
}
