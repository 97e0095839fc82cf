// The scale seeder (decision 065): a bank of `customers` customers with three years of history each, written
// with set-based SQL (generate_series) on a migrated PostgreSQL database, in chunks that each commit alone.
// Everything is a function of (seed, n): ids are md5 of a label, choices come from hashtextextended, never
// random(), so a step that reuses the previous one's rows (seeding 100_000 on the 10_000 step) adds exactly
// customers 10_000..99_999 and the result is the same as seeding 100_000 at once.
//
// The triggers are off while it writes (session_replication_role = replica): the user-event triggers would take
// a counter lock and a pg_notify per row, and the foreign-key triggers a probe per row; the rows are consistent by
// construction and the notices the triggers would have written are written here directly.
import { pathToFileURL } from "node:url";
import { hash } from "@node-rs/argon2";
import pg from "pg";

export interface ScaleSeed {
  customers: number;
  /** Every choice is a function of this and the customer's number; defaults to 1. */
  seed?: number;
  /** Progress lines (one per chunk); silent when absent. */
  log?: (line: string) => void;
}

export interface ScaleSeedReport {
  /** Customers in the database after the call, and how many this call added. */
  customers: number;
  added: number;
  /** Rows this call inserted, over every table, and the time it took (seconds, ANALYZE included). */
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  /** pg_database_size afterwards. */
  databaseBytes: number;
}

export const SCALE_PASSWORD = "Scale-Harbor-Quartz-2026";
export const scaleEmail = (n: number) => `scale-${n}@scale.test`;
export const scaleTag = (n: number) => `scale_${n}`;
export const scaleStaffEmail = (k: number) => `scale-staff-${k}@scale.test`;
/** The account number of an approved customer: nine digits, its last four are n's last four. */
export const scaleAccountNumber = (n: number) => String(300_000_000 + n);

/** Own history rows per approved customer; each also receives about one tag payment in five of those slots' worth. */
export const OWN_TRANSACTIONS = 50;
/** A customer's own movements, by slot i mod 5: what the history shows. */
export const SLOT_KINDS = ["credit", "transfer", "tag", "fee", "transfer"] as const;

/** 5 % of customers: KYC still pending (n ≡ 3 mod 40) or rejected (n ≡ 23 mod 40); they have no account or wallet. */
export const kycStatusOf = (n: number): "approved" | "pending" | "rejected" =>
  n % 40 === 3 ? "pending" : n % 40 === 23 ? "rejected" : "approved";
/** 2 %: frozen by "This wasn't me" (and so must reset the password before signing in). */
export const isFrozen = (n: number) => n % 50 === 17;
/** 1,000 open compliance cases, on customers 5, 15, …, 9,995 (fewer below 10,000 customers). */
export const hasOpenCase = (n: number) => n % 10 === 5 && n < 10_000;
/** 5 % send their transfers in slot 1 to one of the whale addresses. */
export const isWhaleSender = (n: number) => n % 20 === 9;
/** 1 %: the last transfer is still pending (an open hold), in the back office's approval queue. */
export const hasPendingTransfer = (n: number) => n % 100 === 42;
/** Has a support conversation (six messages over the three years). */
export const hasChat = (n: number) => n % 3 === 0;
/** An approved, unfrozen customer with no open case or pending transfer: free to sign in and move money. */
export const isPlainCustomer = (n: number) =>
  kycStatusOf(n) === "approved" && !isFrozen(n) && !hasOpenCase(n) && !hasPendingTransfer(n) && n > 0;

/** Crypto addresses that many customers pay (monitoring's "many senders to one address"). */
export const WHALE_ADDRESSES = [0, 1, 2, 3, 4].map((k) => `0x5ca1e${"0".repeat(34)}${k}`);

/** Staff members: number, roles. */
export const SCALE_STAFF: { k: number; roles: ("support" | "compliance" | "finance" | "owner")[] }[] = [
  { k: 0, roles: ["owner"] },
  { k: 1, roles: ["support"] },
  { k: 2, roles: ["support"] },
  { k: 3, roles: ["compliance"] },
  { k: 4, roles: ["compliance"] },
  { k: 5, roles: ["finance"] },
  { k: 6, roles: ["finance"] },
  { k: 7, roles: ["support", "compliance"] },
];
export const STAFF_ACTIONS_TOTAL = 100_000;
/** The staff actions seeded once per database (audit search's haystack), with the role that takes each. */
const STAFF_ACTIONS: [
  action: string,
  role: "support" | "compliance" | "finance",
  staffA: number,
  staffB: number,
][] = [
  ["customer.ssn_revealed", "compliance", 3, 4],
  ["customer.dob_revealed", "compliance", 3, 4],
  ["customer.document_opened", "compliance", 3, 4],
  ["compliance.account_reviewed", "compliance", 3, 4],
  ["account_request.update", "compliance", 3, 7],
  ["self_limits.note", "support", 1, 2],
  ["transaction.update_status", "finance", 5, 6],
];

/** Customers per committed chunk: 50 own movements each, ~150,000 transactions rows per chunk. */
const CHUNK = 2_500;

const GIVEN = [
  "James",
  "Maria",
  "Mohammed",
  "Wei",
  "Olga",
  "Ali",
  "Priya",
  "Chinedu",
  "Minh",
  "Fatemeh",
  "Carlos",
  "Aisha",
  "Sergei",
  "Jose",
  "Li",
  "Omar",
  "Anna",
  "Hassan",
  "Emily",
  "Juan",
  "Reza",
  "Kwame",
  "Harriet",
  "Percival",
  "Winifred",
  "Yuki",
  "Ingrid",
  "Tomasz",
  "Lucia",
  "Dmitri",
  "Grace",
  "Mateo",
  "Sofia",
  "Noah",
  "Amara",
  "Kofi",
];
const FAMILY = [
  "Smith",
  "Garcia",
  "Khan",
  "Zhang",
  "Ivanova",
  "Hosseini",
  "Patel",
  "Okafor",
  "Tran",
  "Rahman",
  "Lopez",
  "Hussein",
  "Petrov",
  "Martinez",
  "Chen",
  "Johnson",
  "Ahmadi",
  "Nguyen",
  "Mensah",
  "Brown",
  "Kim",
  "Thistlewood",
  "Ashcombe",
  "Pennyworth",
  "Fairweather",
  "Hollingsworth",
  "Brackenbury",
  "Nakamura",
  "Kowalski",
  "Rossi",
  "Lindqvist",
  "Oyelaran",
  "Castellanos",
  "Haddad",
  "Moreau",
  "Schneider",
  "Adeyemi",
  "Papadopoulos",
];
const CITIES = [
  ["Austin", "TX", "73301"],
  ["Denver", "CO", "80202"],
  ["Columbus", "OH", "43004"],
  ["Portland", "OR", "97201"],
  ["Raleigh", "NC", "27601"],
  ["Tampa", "FL", "33601"],
];

const sqlArray = (words: readonly string[]) => `array[${words.map((w) => `'${w}'`).join(",")}]::text[]`;

interface Ctx {
  client: pg.Client;
  seed: number;
  anchor: string;
  passwordHash: string;
  system: { external: string; clearing: string; fees: string };
  staff: string[];
}

/** Adds customers `from`..`to - 1` in one transaction; answers the rows written. */
async function seedChunk(ctx: Ctx, from: number, to: number): Promise<number> {
  const { client, seed } = ctx;
  const A = `'${ctx.anchor}'::timestamptz`;
  const { external, clearing, fees } = ctx.system;
  const staff = (k: number) => `'${ctx.staff[k]}'::uuid`;
  let rows = 0;
  const run = async (text: string, params: unknown[] = []) => {
    const t = performance.now();
    const res = await client.query(text, params);
    rows += res.command === "INSERT" ? (res.rowCount ?? 0) : 0;
    if (process.env.SCALE_SEED_TRACE) {
      console.log(
        `${(performance.now() - t).toFixed(0).padStart(7)} ms ${text.trim().slice(0, 60).replace(/\s+/g, " ")}`,
      );
    }
  };
  await client.query("begin");
  try {
    await client.query("set local session_replication_role = replica");
    await client.query("set local synchronous_commit = off");
    await run(`create temp table sc on commit drop as
      select n, pg_temp.u(n, 'u:' || n) as id, pg_temp.u(n, 'w:' || n) as wallet,
        case when n % 40 = 3 then 'pending' when n % 40 = 23 then 'rejected' else 'approved' end as kyc,
        n % 50 = 17 as frozen,
        ${A} - make_interval(days => 1095 + n % 90, secs => pg_temp.h('j:' || n) % 86400) as joined,
        (${sqlArray(GIVEN)})[1 + pg_temp.h('g:' || n) % ${GIVEN.length}] as first_name,
        (${sqlArray(FAMILY)})[1 + pg_temp.h('f:' || n) % ${FAMILY.length}] as last_name,
        1 + pg_temp.h('c:' || n) % ${CITIES.length} as city
      from generate_series(${from}::int, ${to - 1}::int) n`);
    await run(
      `insert into users (id, email, first_name, last_name, pillar_tag, phone_number, password_hash,
         is_email_verified, email_verified_at, password_set_at, frozen_at, password_reset_required, created_at, updated_at)
       select id, 'scale-' || n || '@scale.test', first_name, last_name, 'scale_' || n, '+1555' || lpad(n::text, 7, '0'),
         $1, true, joined, joined, case when frozen then ${A} - make_interval(days => 1 + n % 60) end, frozen, joined, joined
       from sc`,
      [ctx.passwordHash],
    );
    const city = (col: number) => `(${sqlArray(CITIES.map((c) => c[col]!))})[s.city]`;
    await run(`insert into kyc_applications (id, user_id, account_type, first_name, last_name, street, city, state,
        zip_code, address, ssn_ciphertext, ssn_index, ssn_last4, date_of_birth, status, submitted_at, reviewed_at,
        reviewed_by, created_at, updated_at)
      select pg_temp.u(n, 'k:' || n), id, 'personal', first_name, last_name, (1 + n % 9000) || ' Main St', ${city(0)},
        ${city(1)}, ${city(2)}, (1 + n % 9000) || ' Main St, ' || ${city(0)} || ', ' || ${city(1)} || ' ' || ${city(2)},
        'scale', md5('${seed}:ssn:' || n), lpad((pg_temp.h('ssn:' || n) % 10000)::text, 4, '0'),
        date '1940-01-01' + (pg_temp.h('dob:' || n) % 23725)::int, kyc, joined + interval '1 hour',
        case when kyc <> 'pending' then joined + interval '1 day' end,
        case when kyc <> 'pending' then ${staff(3)} end, joined + interval '1 hour', joined + interval '1 day'
      from sc s`);
    await run(`insert into account_requests (id, user_id, kyc_application_id, account_type, status, account_number,
        routing_number, approved_at, created_at, updated_at)
      select pg_temp.u(n, 'a:' || n), id, pg_temp.u(n, 'k:' || n), 'personal', kyc,
        case when kyc = 'approved' then (300000000 + n)::text end, case when kyc = 'approved' then '021000021' end,
        case when kyc = 'approved' then joined + interval '1 day' end, joined + interval '1 hour', joined + interval '1 day'
      from sc`);
    await run(`insert into ledger_accounts (id, code, kind, user_id, balance, held, created_at)
      select wallet, 'wallet:' || id, 'wallet', id, 0, 0, joined from sc where kyc = 'approved'`);

    // Every movement of the chunk's customers, slot i of 50 spread evenly over their three years.
    await run(`create temp table mv on commit drop as
      with b as (
        select s.n, s.id as user_id, s.wallet, i,
          case when i % 5 = 0 or (i % 5 = 2 and s.n = 0) then 'credit' when i % 5 in (1, 4) then 'transfer'
               when i % 5 = 2 then 'tag' else 'fee' end as kind,
          s.joined + (${A} - s.joined) * ((i + 0.2 + (pg_temp.h('at:' || s.n || ':' || i) % 600) / 1000.0) / ${OWN_TRANSACTIONS}) as at,
          pg_temp.h('r:' || s.n || ':' || i) as r
        from sc s, generate_series(0, ${OWN_TRANSACTIONS - 1}) i
        where s.kyc = 'approved'),
      p as (select b.*, b.n - 1 - (b.r / 13) % greatest(least(b.n, 1000), 1) as m from b)
      select n, user_id, wallet, i, kind, at,
        case kind when 'credit' then case when i = 0 then 500000 + r % 500000 else 50000 + r % 150000 end
          when 'transfer' then 2000 + r % 18000 when 'tag' then 500 + r % 9500 else 100 + r % 900 end::bigint as amount,
        case when kind = 'transfer' then 100 + (r / 7) % 400 else 0 end::bigint as fee,
        kind = 'transfer' and n % 100 = 42 and i = ${OWN_TRANSACTIONS - 1} as pending,
        case when kind = 'tag' then case when m % 40 in (3, 23) then m - 1 else m end end as payee_n,
        case when kind = 'transfer' and i % 5 = 1 and n % 20 = 9
          then (${sqlArray(WHALE_ADDRESSES)})[1 + (n / 20) % ${WHALE_ADDRESSES.length}]
          else '0x' || md5('${seed}:addr:' || n) || left(md5('${seed}:addr2:' || n), 8) end as address,
        pg_temp.u(n::bigint * 64 + i, 't:' || n || ':' || i) as tx_id, pg_temp.u(n::bigint * 64 + i, 'e:' || n || ':' || i) as entry_id,
        pg_temp.u(n::bigint * 64 + i, 'ref:' || n || ':' || i) as ref_id, pg_temp.u(n::bigint * 64 + i, 'h:' || n || ':' || i) as hold_id
      from p`);
    await run(`insert into journal_entries (id, kind, description, reference_type, reference_id, actor_id, created_at)
      select entry_id,
        case kind when 'credit' then 'admin_credit' when 'transfer' then 'transfer_capture' when 'tag' then 'tag_payment' else 'fee' end,
        case kind when 'credit' then 'Deposit' when 'transfer' then 'USDC transfer to Scale recipient'
          when 'tag' then 'Payment from scale_' || n || ' to scale_' || payee_n else 'Account fee' end,
        case kind when 'transfer' then 'transfer_request' when 'tag' then 'tag_payment' end,
        case when kind in ('transfer', 'tag') then ref_id::text end,
        case when kind = 'credit' then ${staff(5)} end, at
      from mv where not pending`);
    await run(`create temp table np on commit drop as
      select m.entry_id, p.account_id, p.amount, m.at
      from mv m cross join lateral (values
        (m.wallet, case m.kind when 'credit' then m.amount else -m.amount end),
        (case m.kind when 'credit' then '${external}'::uuid when 'transfer' then '${clearing}'::uuid
           when 'tag' then pg_temp.u(m.payee_n, 'w:' || m.payee_n) else '${fees}'::uuid end,
         case m.kind when 'credit' then -m.amount when 'transfer' then m.amount - m.fee else m.amount end),
        ('${fees}'::uuid, m.fee)) p(account_id, amount)
      where not m.pending and p.amount <> 0`);
    await run(
      "insert into postings (entry_id, account_id, amount, created_at) select entry_id, account_id, amount, at from np",
    );
    // Wallet balances move by this chunk's postings (a tag payment may credit a customer of an earlier chunk).
    await run(`update ledger_accounts a set balance = a.balance + d.delta
      from (select account_id, sum(amount) as delta from np group by account_id) d
      where a.id = d.account_id and a.kind = 'wallet'`);
    await run(`update ledger_accounts a set held = a.held + m.amount
      from mv m where m.pending and a.id = m.wallet`);
    await run(`insert into transactions (id, user_id, type, amount, fee, net_amount, description, category, status,
        source_type, source_id, entry_id, created_at, updated_at)
      select tx_id, user_id, case kind when 'credit' then 'credit' else 'debit' end, amount, fee, amount - fee,
        case kind when 'credit' then 'Deposit' when 'transfer' then 'USDC transfer to Scale recipient'
          when 'tag' then 'Payment to scale_' || payee_n else 'Account fee' end,
        'other', case when pending then 'pending' else 'completed' end,
        case kind when 'credit' then 'admin' when 'transfer' then 'transfer_request' when 'tag' then 'tag_payment'
          else 'adjustment' end,
        case when kind in ('transfer', 'tag') then ref_id end, case when not pending then entry_id end, at, at
      from mv
      union all
      select pg_temp.u(n::bigint * 64 + i, 'ti:' || n || ':' || i), pg_temp.u(payee_n, 'u:' || payee_n), 'credit', amount, 0, amount,
        'Payment from scale_' || n, 'other', 'completed', 'tag_payment', ref_id, entry_id, at, at
      from mv where kind = 'tag'`);
    await run(`insert into holds (id, account_id, amount, status, reference_type, reference_id, created_at, closed_at)
      select hold_id, wallet, amount, case when pending then 'open' else 'captured' end, 'transfer_request',
        ref_id::text, at, case when not pending then at + interval '2 hours' end
      from mv where kind = 'transfer'`);
    await run(`insert into transfer_requests (id, user_id, amount, fee, net_amount, recipient_name, recipient_routing,
        purpose, category, payment_method, crypto_address, status, hold_id, transaction_id, limit_day, reviewed_at,
        settled_at, created_at, updated_at)
      select ref_id, user_id, amount, fee, amount - fee, 'Scale recipient', 'CRYPTO', 'Personal', 'other', 'crypto',
        address, case when pending then 'pending' else 'completed' end, hold_id, tx_id,
        to_char(at at time zone 'America/New_York', 'YYYY-MM-DD'),
        case when not pending then at + interval '1 hour' end, case when not pending then at + interval '2 hours' end,
        at, at
      from mv where kind = 'transfer'`);
    await run(`insert into tag_payments (id, payer_id, payee_id, payer_tag, payee_tag, amount, limit_day, entry_id,
        payer_transaction_id, payee_transaction_id, created_at)
      select ref_id, user_id, pg_temp.u(payee_n, 'u:' || payee_n), 'scale_' || n, 'scale_' || payee_n, amount,
        to_char(at at time zone 'America/New_York', 'YYYY-MM-DD'), entry_id, tx_id, pg_temp.u(n::bigint * 64 + i, 'ti:' || n || ':' || i), at
      from mv where kind = 'tag'`);
    await run(`insert into saved_recipients (id, user_id, name, address, created_at)
      select pg_temp.u(n, 'sr:' || n), id, 'My wallet', '0x' || md5('${seed}:addr:' || n) || left(md5('${seed}:addr2:' || n), 8), joined
      from sc where kyc = 'approved'`);
    await run(`insert into deposit_addresses (derivation_index, user_id, address, created_at, kind)
      select n, id, '0x' || md5('${seed}:dep:' || n) || left(md5('${seed}:dep2:' || n), 8), joined, 'xpub'
      from sc where kyc = 'approved'`);

    // Support chat, notifications, sessions and devices, audit, the pushed-notice log and the event log.
    await run(`insert into chat_messages (user_id, author_id, is_from_user, message, read_at, created_at)
      select s.id, case when j % 2 = 0 then s.id else ${staff(1)} end, j % 2 = 0,
        case when j % 2 = 0 then 'Hello, I have a question about my account (' || j || ')'
          else 'Thanks for writing, here is what we found (' || j || ')' end,
        s.joined + (${A} - s.joined) * ((j + 1) / 7.0) + interval '1 hour', s.joined + (${A} - s.joined) * ((j + 1) / 7.0)
      from sc s, generate_series(0, 5) j where s.n % 3 = 0 order by s.n, j`);
    await run(`insert into chat_conversations (user_id, last_message_id, last_message_at, created_at)
      select m.user_id, max(m.id), max(m.created_at), min(m.created_at)
      from chat_messages m join sc s on s.id = m.user_id where s.n % 3 = 0 group by m.user_id`);
    await run(`insert into notifications (user_id, kind, title, body, created_at, read_at)
      select s.id, (array['money_in', 'transfer_status', 'security', 'statement_ready'])[1 + j % 4],
        (array['Money in', 'Transfer update', 'New sign-in', 'Your statement is ready'])[1 + j % 4],
        'Scale notice ' || j, s.joined + (${A} - s.joined) * ((j + 0.5) / 12),
        case when j < 11 then s.joined + (${A} - s.joined) * ((j + 0.5) / 12) + interval '1 day' end
      from sc s, generate_series(0, 11) j`);
    await run(`insert into sessions (id_hash, user_id, public_id, user_agent, ip, created_at, last_seen_at, expires_at)
      select encode(sha256(convert_to('${seed}:s:' || n, 'UTF8')), 'hex'), id, pg_temp.u(n, 'sp:' || n), 'scale-seed',
        '10.0.' || (n / 250 % 250) || '.' || (n % 250),
        now() - make_interval(mins => 30 + n % 600), now() - make_interval(mins => n % 30),
        case when n % 10 = 0 then now() + interval '12 hours' else now() - interval '1 hour' end
      from sc where n % 10 in (0, 1)`);
    await run(`insert into known_devices (id, user_id, token_hash, user_agent, ip, created_at, last_seen_at)
      select pg_temp.u(n, 'kd:' || n), id, md5('${seed}:device:' || n), 'scale-seed', '127.0.0.1', joined,
        ${A} - make_interval(days => n % 30)
      from sc`);
    await run(`insert into audit_log (actor_id, action, target_type, target_id, subject_user_id, actor_role, created_at)
      select id, 'kyc.submit', 'kyc_application', pg_temp.u(n, 'k:' || n)::text, id, null, joined + interval '1 hour'
      from sc
      union all
      select ${staff(3)}, case kyc when 'approved' then 'kyc.approve' else 'kyc.reject' end, 'kyc_application',
        pg_temp.u(n, 'k:' || n)::text, id, 'compliance', joined + interval '1 day'
      from sc where kyc <> 'pending'
      union all
      select ${staff(1)}, 'customer.chat_opened', 'chat', id::text, id, 'support', ${A} - make_interval(days => n % 300)
      from sc where n % 3 = 0`);
    await run(`insert into user_event_counters (user_id, last_id) select id, 5 from sc`);
    await run(`insert into user_events (user_id, id, topics, created_at)
      select s.id, j, array['summary', 'transactions'], now() - make_interval(hours => 24 * (5 - j) + s.n % 24)
      from sc s, generate_series(1, 5) j`);
    await run(`insert into events (kind, user_id, payload, created_at)
      select case kind when 'transfer' then 'transfer.requested' else 'tag_payment.made' end, user_id,
        case kind when 'transfer' then jsonb_build_object('transfer_id', ref_id, 'amount_cents', amount, 'fee_cents', fee,
            'crypto_address', address, 'recipient_name', 'Scale recipient', 'created_at', at, 'channel', 'direct')
          else jsonb_build_object('payment_id', ref_id, 'payer_id', user_id, 'payee_id', pg_temp.u(payee_n, 'u:' || payee_n),
            'amount_cents', amount, 'payer_tag', 'scale_' || n, 'payee_tag', 'scale_' || payee_n) end,
        at
      from mv where kind in ('transfer', 'tag') and at > ${A} - interval '30 days' order by at`);

    // Open compliance cases, each with the name hit that opened it.
    await run(`insert into compliance_cases (id, user_id, status, opened_at, updated_at)
      select pg_temp.u(n, 'cc:' || n), id, 'open', ${A} - make_interval(days => n % 90), ${A} - make_interval(days => n % 90)
      from sc where n % 10 = 5 and n < 10000 and kyc = 'approved'`);
    await run(`insert into compliance_hits (id, case_id, user_id, dedupe_key, screening_point, subject_type, subject,
        matched, score, list_version, list_source, ent_num, programs, created_at)
      select pg_temp.u(n, 'ch:' || n), pg_temp.u(n, 'cc:' || n), id, 'scale:${seed}:' || n, 'kyc', 'name',
        first_name || ' ' || last_name, 'MLADIC, Ratko', 0.86, 1, 'sdn', 7744, 'BALKANS', ${A} - make_interval(days => n % 90)
      from sc where n % 10 = 5 and n < 10000 and kyc = 'approved'`);
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  }
  return rows;
}

/** The staff members, once per database (their ids are fixed by the seed). */
async function seedStaff(ctx: Ctx): Promise<number> {
  const res = await ctx.client.query(
    `insert into users (id, email, first_name, last_name, pillar_tag, password_hash, is_email_verified,
       email_verified_at, staff_roles, created_at)
     select pg_temp.u(s.k, 'staff:' || s.k), 'scale-staff-' || s.k || '@scale.test', 'Staff', 'Member ' || s.k,
       'scale_staff_' || s.k, $1, true, now(), s.roles, ${`'${ctx.anchor}'::timestamptz`} - interval '1200 days'
     from jsonb_to_recordset($2::jsonb) as s(k int, roles text[])
     on conflict do nothing`,
    [ctx.passwordHash, JSON.stringify(SCALE_STAFF)],
  );
  return res.rowCount ?? 0;
}

/** Tops the staff actions up to STAFF_ACTIONS_TOTAL, spread over the customers there are now. */
async function seedStaffActions(ctx: Ctx, customers: number): Promise<number> {
  const actions = STAFF_ACTIONS.map((a) => a[0]);
  const { rows } = await ctx.client.query(
    "select count(*)::int as n from audit_log where actor_id = any($1::uuid[]) and action = any($2::text[])",
    [ctx.staff, actions],
  );
  const have = rows[0].n as number;
  if (have >= STAFF_ACTIONS_TOTAL || customers === 0) return 0;
  const res = await ctx.client.query(
    `with a as (select * from jsonb_to_recordset($1::jsonb) as a(i int, action text, role text, sa int, sb int)),
     g as (select j, pg_temp.h('sa:' || j) % $2 as n from generate_series($3::int, $4::int - 1) j)
     insert into audit_log (actor_id, action, target_type, target_id, subject_user_id, actor_role, reason, created_at)
     select ($5::uuid[])[1 + case when g.j % 2 = 0 then a.sa else a.sb end], a.action, 'user',
       pg_temp.u(g.n, 'u:' || g.n)::text, pg_temp.u(g.n, 'u:' || g.n), a.role,
       case when a.action like 'customer.%' then 'Checking the customer''s identity for a review' end,
       '${ctx.anchor}'::timestamptz - make_interval(secs => pg_temp.h('st:' || g.j) % (1095 * 86400))
     from g join a on a.i = g.j % ${STAFF_ACTIONS.length}
     order by 8`,
    [
      JSON.stringify(STAFF_ACTIONS.map(([action, role, sa, sb], i) => ({ i, action, role, sa, sb }))),
      customers,
      have,
      STAFF_ACTIONS_TOTAL,
      ctx.staff,
    ],
  );
  return res.rowCount ?? 0;
}

async function countCustomers(client: pg.Client): Promise<number> {
  const { rows } = await client.query(
    `select count(*)::int as n from users where pillar_tag ~ '^scale_[0-9]+$'`,
  );
  return rows[0].n as number;
}

/**
 * Seeds the database at `url` (migrated to the latest schema) up to `customers` customers; the customers already
 * there (0..M-1, from an earlier step or a killed run's committed chunks) are kept and only M..customers-1 added.
 */
/**
 * What the triggers keep, written here since the seed ran with them off: the admin stats (decision 061), counted
 * with their deltas cleared in one statement, and the senders of each address (decision 064). Each only where the
 * database has it (the online-migration test seeds at the schema before them).
 */
async function rebuildTriggerKeptTables(client: pg.Client): Promise<void> {
  const { rows } = await client.query(
    "select to_regclass('admin_stats') is not null as stats, to_regclass('address_senders') is not null as senders",
  );
  if (rows[0].stats) {
    await client.query(`with counted as (delete from admin_stats_deltas returning 1)
      insert into admin_stats (customers, active_accounts, wallet_balance, transactions) values (
        (select count(*) from users where not is_admin),
        (select count(*) from account_requests where status = 'approved' and superseded_at is null),
        (select coalesce(sum(balance), 0) from ledger_accounts where kind = 'wallet'),
        (select count(*) from transactions))
      on conflict (id) do update set customers = excluded.customers, active_accounts = excluded.active_accounts,
        wallet_balance = excluded.wallet_balance, transactions = excluded.transactions, folded_at = now()`);
  }
  if (rows[0].senders) {
    await client.query(`insert into address_senders (address, user_id, first_at, last_at)
      select lower(crypto_address), user_id, min(created_at), max(created_at) from transfer_requests
      where user_id is not null group by 1, 2
      on conflict (address, user_id) do update set first_at = least(address_senders.first_at, excluded.first_at),
        last_at = greatest(address_senders.last_at, excluded.last_at)`);
  }
}

export async function seedScale(url: string, options: ScaleSeed): Promise<ScaleSeedReport> {
  const seed = options.seed ?? 1;
  const log = options.log ?? (() => {});
  if (!Number.isInteger(seed) || seed < 0) throw new Error("seed must be a non-negative integer");
  if (!Number.isInteger(options.customers) || options.customers < 0 || options.customers > 699_999_999) {
    throw new Error("customers must be an integer between 0 and 699,999,999");
  }
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("set statement_timeout = 0");
    await client.query(`create or replace function pg_temp.h(t text) returns bigint language sql immutable
      as $$ select hashtextextended(t, ${seed}) & 9223372036854775807 $$`);
    // Version-4-shaped (the routes' uuid schemas check the version and variant digits), their first 48 bits the
    // customer's number: a chunk's rows land at the right edge of each primary key instead of on random pages of
    // an index many times the size of shared_buffers.
    await client.query(`create or replace function pg_temp.u(k bigint, t text) returns uuid language sql immutable
      as $$ select (lpad(to_hex(k), 12, '0') || '4' || substr(md5('${seed}:' || t), 1, 3) || '8'
        || substr(md5('${seed}:' || t), 4, 15))::uuid $$`);
    const { rows: anchorRows } = await client.query(
      "select to_char(date_trunc('day', now()) at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') as a",
    );
    const { rows: sys } = await client.query(
      "select code, id from ledger_accounts where code in ('external_funding', 'usdc_clearing', 'fee_revenue')",
    );
    const sysId = (code: string) => {
      const found = sys.find((r) => r.code === code);
      if (!found) throw new Error(`ledger account ${code} is missing: is the database migrated?`);
      return found.id as string;
    };
    // Same argon2id parameters as server/lib/passwords.ts; one hash serves every seeded login.
    const passwordHash = await hash(SCALE_PASSWORD, {
      algorithm: 2,
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
    });
    const ctx: Ctx = {
      client,
      seed,
      anchor: anchorRows[0].a as string,
      passwordHash,
      system: {
        external: sysId("external_funding"),
        clearing: sysId("usdc_clearing"),
        fees: sysId("fee_revenue"),
      },
      staff: [],
    };
    let rows = await seedStaff(ctx);
    const { rows: staffRows } = await client.query(
      "select id from users where email = any($1::text[]) order by substring(email from 'scale-staff-([0-9]+)@')::int",
      [SCALE_STAFF.map((s) => scaleStaffEmail(s.k))],
    );
    ctx.staff = staffRows.map((r) => r.id as string);
    if (ctx.staff.length !== SCALE_STAFF.length)
      throw new Error("the scale staff members could not be written");

    const before = await countCustomers(client);
    for (let from = before; from < options.customers; from += CHUNK) {
      const to = Math.min(from + CHUNK, options.customers);
      const t = performance.now();
      rows += await seedChunk(ctx, from, to);
      log(`customers ${from}..${to - 1} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    const after = Math.max(before, options.customers);
    rows += await seedStaffActions(ctx, after);
    // The identity the app derives new deposit addresses from goes on after the seeded indexes.
    await client.query(`select setval(pg_get_serial_sequence('deposit_addresses', 'derivation_index'),
      coalesce((select max(derivation_index) from deposit_addresses), 0) + 1, false)`);
    await rebuildTriggerKeptTables(client);
    // The seeded events were never news: every consumer's cursor moves past them (a new consumer starts at the end).
    await client.query(`update job_cursors c set xact = e.xact, event_id = e.id, updated_at = now()
      from (select xact, id from events order by xact desc, id desc limit 1) e
      where (c.xact, c.event_id) < (e.xact, e.id)`);
    if (after > before) {
      // A bank's tables are vacuumed (autovacuum); a freshly loaded one is not, and machines here run with
      // autovacuum off: the reads measured next would set every row's hint bits and find no visibility map.
      // Pages the previous step vacuumed are skipped (all-visible), so a step vacuums only what it added.
      log("vacuum (analyze)");
      await client.query("vacuum (analyze)");
      // And flushed: the first measured commits otherwise wait 300-500 ms on a checkpoint writing out the load.
      await client.query("checkpoint");
    }
    const { rows: size } = await client.query("select pg_database_size(current_database())::text as bytes");
    const seconds = (performance.now() - started) / 1000;
    return {
      customers: after,
      added: after - before,
      rows,
      seconds,
      rowsPerSecond: Math.round(rows / seconds),
      databaseBytes: Number(size[0].bytes),
    };
  } finally {
    await client.end();
  }
}

// tsx scripts/bench/scale/seed.ts <customers> [seed]   (DATABASE_URL: a migrated scratch database)
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = process.env.DATABASE_URL;
  const customers = Number(process.argv[2]);
  if (!url || !Number.isInteger(customers)) {
    console.error("usage: DATABASE_URL=postgres://… tsx scripts/bench/scale/seed.ts <customers> [seed]");
    process.exit(2);
  }
  const report = await seedScale(url, {
    customers,
    seed: process.argv[3] ? Number(process.argv[3]) : 1,
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify(report));
}
