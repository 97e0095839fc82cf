import type pg from "pg";

/** The customers the online tests seed: small enough for CI by default; README says how to run the 100 k step. */
export const ONLINE_CUSTOMERS = Number(process.env.ONLINE_TEST_CUSTOMERS ?? 10_000);

/**
 * Rows in the tables that grow with customers, in the shape the schema of 0050 has (the online migration test
 * seeds before this migrations), set-based: per customer ~60 transactions over three years, 6 transfer
 * requests (5 % of customers pay one exchange address), 30 notifications, 20 chat messages, 10 audit rows,
 * and 2 sessions (not events: the outbox's consumers would read them as new). Enough rows that the planner's choices are the ones it makes at scale, not the
 * sequential scans it rightly prefers on a few pages.
 */
export async function seedVolume(client: pg.Client, customers = ONLINE_CUSTOMERS): Promise<void> {
  const statements = [
    `insert into users (email, first_name, last_name, pillar_tag, password_hash, created_at)
      select 'online-' || n || '@online.test', 'First' || n, 'Last' || n, 'online_' || n, 'x',
        now() - make_interval(days => 1100 - n % 1000)
      from generate_series(1, $1::int) n`,
    `create temporary table seeded as select id, row_number() over (order by email) as n from users
      where email like 'online-%'`,
    `insert into transactions (user_id, type, amount, fee, net_amount, description, status, source_type, created_at)
      select s.id, case when k % 3 = 0 then 'debit' else 'credit' end, 100 + k * 7, 0, 100 + k * 7, 'seeded',
        'completed', 'admin_credit', now() - make_interval(days => (k * 18) % 1095, mins => (s.n % 1440)::int)
      from seeded s cross join generate_series(1, 60) k`,
    `insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing, purpose,
        category, payment_method, crypto_address, status, limit_day, created_at)
      select s.id, 1000, 0, 1000, 'Payee', 'CRYPTO', 'seeded', 'other', 'crypto',
        case when s.n % 20 = 0 then '0x00000000000000000000000000000000000e0c01'
          else '0x' || lpad(to_hex(s.n * 8 + k % 3), 40, '0') end,
        'completed', to_char(now() - make_interval(days => k * 60), 'YYYY-MM-DD'), now() - make_interval(days => k * 60)
      from seeded s cross join generate_series(1, 6) k`,
    `insert into notifications (user_id, kind, title, body, created_at)
      select s.id, 'seeded', 'Seeded', 'A seeded notification', now() - make_interval(days => k * 36)
      from seeded s cross join generate_series(1, 30) k`,
    `insert into chat_messages (user_id, is_from_user, message, created_at)
      select s.id, k % 2 = 0, 'seeded message ' || k, now() - make_interval(days => k * 50)
      from seeded s cross join generate_series(1, 20) k`,
    `insert into audit_log (actor_id, action, target_type, target_id, subject_user_id, created_at)
      select s.id, 'seeded.action', 'user', s.id::text, s.id, now() - make_interval(days => k * 100)
      from seeded s cross join generate_series(1, 10) k`,
    `insert into sessions (id_hash, user_id, expires_at, created_at)
      select md5(s.id::text || k), s.id, now() + interval '1 day', now() - make_interval(days => k)
      from seeded s cross join generate_series(1, 2) k`,
    "drop table seeded",
    "analyze",
  ];
  for (const [n, text] of statements.entries()) await client.query(text, n === 0 ? [customers] : []);
}
