// The database-side ceiling of a transfer: pgbench runs a transaction equivalent to POST /api/transfer/request
// (the same statements the create_transfer_request function runs, plus the session lookup every request
// makes) against the seeded scratch database, with as many clients as the app has pool connections.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { backendCpuSeconds } from "./processes.mjs";

/** pgbench from Debian's postgresql-contrib, installed with apt-get when it is missing. */
export function ensurePgbench() {
  if (spawnSync("pgbench", ["--version"]).status === 0) return true;
  console.info("pgbench is missing: installing postgresql-contrib…");
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const run = (args) =>
    spawnSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), { stdio: "inherit" });
  run(["apt-get", "update"]);
  run(["apt-get", "install", "-y", "postgresql-contrib"]);
  return spawnSync("pgbench", ["--version"]).status === 0;
}

// One transfer of 1 cent with a fresh idempotency key, as the app writes it (decision 049): the session check, the
// active sanctions list, wallet lock, idempotency lookup, frozen flag, KYC/account gate, today's count and total,
// second factor, the address's screen, the compliance hold, the new-device probe, then the hold, the pending
// debit, the request, its idempotency record, the session's touch (at most once a minute) and the one event.
const TRANSFER_SCRIPT = String.raw`
\set r random(1, 9000000000000000)
BEGIN;
SELECT s.user_id AS uid, s.id_hash AS sid FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = (SELECT b.id_hash FROM pgbench_transfer_users b WHERE b.n = :n) AND s.expires_at > now() AND s.last_seen_at > now() - interval '30 minutes' AND u.is_email_verified \gset
SELECT l.id, l.version FROM sanctions_lists l WHERE l.is_active;
SELECT a.id AS wid, a.balance - a.held AS available FROM ledger_accounts a WHERE a.user_id = :uid FOR UPDATE \gset
SELECT ik.request_hash FROM idempotency_keys ik WHERE ik.user_id = :uid AND ik.key = 'pgb-' || :client_id::text || '-' || :r::text;
SELECT u.frozen_at IS NOT NULL AS frozen FROM users u WHERE u.id = :uid;
SELECT exists (SELECT 1 FROM kyc_applications k WHERE k.user_id = :uid AND k.superseded_at IS NULL AND k.status = 'approved') AND exists (SELECT 1 FROM account_requests r WHERE r.user_id = :uid AND r.superseded_at IS NULL AND r.status = 'approved' AND r.account_number IS NOT NULL) AS can_send;
SELECT count(*), coalesce(sum(t.amount) FILTER (WHERE t.status IN ('pending', 'processing', 'completed')), 0) FROM transfer_requests t WHERE t.user_id = :uid AND t.limit_day = to_char(now() AT TIME ZONE 'America/New_York', 'YYYY-MM-DD');
SELECT exists (SELECT 1 FROM totp_factors f WHERE f.user_id = :uid AND f.confirmed_at IS NOT NULL) OR exists (SELECT 1 FROM passkeys p WHERE p.user_id = :uid) AS has_second_factor;
SELECT a.source, a.ent_num FROM sanctions_addresses a WHERE a.list_id = (SELECT l.id FROM sanctions_lists l WHERE l.is_active) AND a.address_key = '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
SELECT exists (SELECT 1 FROM compliance_cases c WHERE c.user_id = :uid AND c.status IN ('open', 'confirmed', 'restricted', 'frozen', 'filed')) AS compliance_hold;
SELECT max(d.created_at) FROM known_devices d WHERE d.user_id = :uid AND d.created_at > now() - interval '48 hours';
SELECT gen_random_uuid() AS tid, gen_random_uuid() AS xid, gen_random_uuid() AS hid \gset
UPDATE ledger_accounts SET held = held + 1 WHERE id = :wid;
INSERT INTO holds (id, account_id, amount, reference_type, reference_id) VALUES (:hid, :wid, 1, 'transfer_request', :tid);
INSERT INTO transactions (id, user_id, type, amount, fee, net_amount, description, category, status, source_type, source_id, created_at) VALUES (:xid, :uid, 'debit', 1, 0, 1, 'USDC transfer to Bench Recipient', 'other', 'pending', 'transfer_request', :tid, now());
INSERT INTO transfer_requests (id, user_id, amount, fee, net_amount, recipient_name, recipient_account, recipient_routing, purpose, category, payment_method, crypto_address, status, hold_id, transaction_id, limit_day, created_at, updated_at) VALUES (:tid, :uid, 1, 0, 1, 'Bench Recipient', NULL, 'CRYPTO', 'Benchmark transfer', 'other', 'crypto', '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'pending', :hid, :xid, to_char(now() AT TIME ZONE 'America/New_York', 'YYYY-MM-DD'), now(), now());
INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response) VALUES (:uid, 'pgb-' || :client_id::text || '-' || :r::text, md5(:tid::text), 201, jsonb_build_object('message', 'Transfer request submitted successfully', 'transferRequest', jsonb_build_object('id', :tid::text, 'amountCents', 1, 'recipientName', 'Bench Recipient', 'purpose', 'Benchmark transfer', 'cryptoAddress', '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'status', 'pending', 'createdAt', now())));
UPDATE sessions SET last_seen_at = now() WHERE id_hash = :sid AND last_seen_at < now() - interval '60 seconds';
INSERT INTO events (kind, user_id, payload) VALUES ('transfer.requested', :uid, jsonb_build_object('transfer_id', :tid::text, 'amount_cents', 1, 'fee_cents', 0, 'crypto_address', '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'recipient_name', 'Bench Recipient', 'created_at', now(), 'review', '[]'::jsonb, 'new_device_at', NULL, 'notices', jsonb_build_array(jsonb_build_object('user_id', :uid::text, 'topics', jsonb_build_array('summary', 'transactions', 'transfers')))));
SELECT pg_notify('pillar_jobs', '');
COMMIT;
`;

// The same transfer as one call of the app's create_transfer_request function, when the measured checkout has
// it: the ceiling of the one-round-trip path itself. Its argument is one JSON object (decision 019; fields as in
// server/db/functions/create-transfer-request.sql); check_lookalike is the saved-recipient check the app runs on
// every unconfirmed transfer. Since decision 049 the function checks the session itself and writes the event
// instead of the link and the mail (its result has a "listed" column); a checkout from before it takes the
// earlier object, one from before decision 019 the 31 positional values.
const FUNCTION_SCRIPT = String.raw`
\set r random(1, 9000000000000000)
SELECT outcome FROM create_transfer_request(jsonb_build_object('user_id', (SELECT b.user_id FROM pgbench_transfer_users b WHERE b.n = :n), 'session_id_hash', (SELECT b.id_hash FROM pgbench_transfer_users b WHERE b.n = :n), 'session_idle_seconds', 1800, 'session_touch_seconds', 60, 'idempotency_key', 'pgb-' || :client_id::text || '-' || :r::text, 'request_hash', md5(:r::text) || md5(:r::text), 'limit_day', to_char(now() AT TIME ZONE 'America/New_York', 'YYYY-MM-DD'), 'daily_limit_cents', 200000, 'daily_count_limit', 1000000, 'second_factor_ok', false, 'transfer_id', gen_random_uuid(), 'transaction_id', gen_random_uuid(), 'hold_id', gen_random_uuid()) || jsonb_build_object('amount_cents', 1, 'fee_cents', 0, 'recipient_name', 'Bench Recipient', 'recipient_account', NULL, 'purpose', 'Benchmark transfer', 'category', 'other', 'crypto_address', '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'description', 'USDC transfer to Bench Recipient', 'created_at', now(), 'response', jsonb_build_object('message', 'Transfer request submitted successfully', 'transferRequest', jsonb_build_object('amountCents', 1, 'recipientName', 'Bench Recipient', 'purpose', 'Benchmark transfer', 'status', 'pending', 'createdAt', now()))) || jsonb_build_object('under_review_message', 'Transfer request submitted. It is under review.', 'sanctions_list_id', (SELECT l.id FROM sanctions_lists l WHERE l.is_active), 'name_listed', false, 'files_hits', false, 'refuse_review', false, 'blocking_rule', jsonb_build_object('device_window_hours', 48, 'established_days', 7, 'min_amount_cents', 20000, 'cooldown_days', 14, 'lookback_days', 120), 'check_lookalike', true));
`;
const PRE_049_FUNCTION_SCRIPT = String.raw`
\set r random(1, 9000000000000000)
SELECT s.user_id AS uid FROM sessions s WHERE s.id_hash = (SELECT b.id_hash FROM pgbench_transfer_users b WHERE b.n = :n) AND s.expires_at > now() \gset
SELECT outcome FROM create_transfer_request(jsonb_build_object('user_id', :uid::uuid, 'idempotency_key', 'pgb-' || :client_id::text || '-' || :r::text, 'request_hash', md5(:r::text) || md5(:r::text), 'limit_day', to_char(now() AT TIME ZONE 'America/New_York', 'YYYY-MM-DD'), 'daily_limit_cents', 200000, 'daily_count_limit', 1000000, 'second_factor_ok', false, 'transfer_id', gen_random_uuid(), 'transaction_id', gen_random_uuid(), 'hold_id', gen_random_uuid(), 'amount_cents', 1, 'fee_cents', 0, 'recipient_name', 'Bench Recipient', 'recipient_account', NULL, 'purpose', 'Benchmark transfer', 'category', 'other', 'crypto_address', '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'description', 'USDC transfer to Bench Recipient', 'created_at', now()) || jsonb_build_object('response', jsonb_build_object('message', 'Transfer request submitted successfully', 'transferRequest', jsonb_build_object('amountCents', 1, 'recipientName', 'Bench Recipient', 'purpose', 'Benchmark transfer', 'status', 'pending', 'createdAt', now())), 'freeze_token_hash', md5(random()::text) || md5(random()::text), 'freeze_ttl_seconds', 604800, 'mail_to', 'bench@bench.test', 'mail_subject', 'Transfer requested', 'mail_text', repeat('t', 900), 'mail_html', repeat('h', 3200), 'mail_kind', 'transfer-requested', 'check_lookalike', true));
`;
const POSITIONAL_FUNCTION_SCRIPT = String.raw`
\set r random(1, 9000000000000000)
SELECT s.user_id AS uid FROM sessions s WHERE s.id_hash = (SELECT b.id_hash FROM pgbench_transfer_users b WHERE b.n = :n) AND s.expires_at > now() \gset
SELECT outcome FROM create_transfer_request(:uid::uuid, 'pgb-' || :client_id::text || '-' || :r::text, md5(:r::text), to_char(now() AT TIME ZONE 'America/New_York', 'YYYY-MM-DD'), 200000, 1000000, false, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 1, 0, 'Bench Recipient', NULL, 'Benchmark transfer', 'other', '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'USDC transfer to Bench Recipient', now(), jsonb_build_object('message', 'Transfer request submitted successfully', 'transferRequest', jsonb_build_object('amountCents', 1, 'recipientName', 'Bench Recipient', 'purpose', 'Benchmark transfer', 'status', 'pending', 'createdAt', now())), md5(random()::text) || md5(random()::text), 604800, 'bench@bench.test', 'Transfer requested', repeat('t', 900), repeat('h', 3200), 'transfer-requested', true, '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'bbbb', 'bbbb');
`;

/** The helper table mapping pgbench's random number to a seeded user (bench-<n>@bench.test). */
export async function preparePgbench(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Its one overload's arguments: "p_call jsonb" since decision 019, the positional list before.
    const { rows } = await client.query(
      `select pg_get_function_identity_arguments(p.oid) as args, pg_get_function_result(p.oid) as result
        from pg_proc p where p.proname = 'create_transfer_request' and p.pronamespace = current_schema()::regnamespace`,
    );
    // Users with a session (the ones the app's scenarios sign in as), and one session each.
    await client.query(`create table if not exists pgbench_transfer_users as
      select distinct on (u.id) substring(u.email from 'bench-([0-9]+)@')::int as n, u.id as user_id, s.id_hash
      from users u join sessions s on s.user_id = u.id where u.email like 'bench-%@bench.test'`);
    await client.query(
      "create unique index if not exists pgbench_transfer_users_n on pgbench_transfer_users (n)",
    );
    await client.query("analyze pgbench_transfer_users");
    const functionScript =
      rows.length !== 1
        ? null
        : rows[0].args !== "p_call jsonb"
          ? POSITIONAL_FUNCTION_SCRIPT
          : rows[0].result.includes("listed")
            ? FUNCTION_SCRIPT
            : PRE_049_FUNCTION_SCRIPT;
    return { hasFunction: functionScript !== null, functionScript };
  } finally {
    await client.end();
  }
}

/**
 * Runs the transfer script for `duration` seconds with `clients` connections; `users` picks the user per
 * transaction: "n" fixed (one wallet) or "lo-hi" (spread). Resolves with tps and latency figures.
 */
export function runPgbench({
  url,
  tmp,
  clients,
  duration,
  users,
  viaFunction = false,
  functionScript = FUNCTION_SCRIPT,
}) {
  const [lo, hi] = users.split("-").map(Number);
  const script = path.join(tmp, `pgbench-transfer-${users}${viaFunction ? "-function" : ""}.sql`);
  const pick = hi === undefined ? `\\set n ${lo}` : `\\set n random(${lo}, ${hi})`;
  fs.writeFileSync(script, `${pick}\n${(viaFunction ? functionScript : TRANSFER_SCRIPT).trim()}\n`);
  return pgbenchScript({ url, script, clients, duration });
}

const MINIMAL_DIR = path.resolve(import.meta.dirname, "../../bench/minimal-transfer");

/** How often the minimal transfer's backends' CPU is read while pgbench runs. */
const CPU_SAMPLE_MS = 100;

/**
 * The minimal careful transfer (bench/minimal-transfer, from the shared bench): its own scratch database next
 * to the app's, the same clients and duration, so the app's transfers/s divides by a floor measured on the
 * same machine in the same run. Also the floor's CPU per transaction: its PostgreSQL backends' CPU over the
 * run ÷ its transactions (pgbench's own process is not counted, as the app's load generator is not).
 */
export async function runMinimalTransfer({ adminUrl, clients, duration }) {
  const name = `pillar_minimal_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await client.query(fs.readFileSync(path.join(MINIMAL_DIR, "schema.sql"), "utf8"));
      await client.query("analyze");
    } finally {
      await client.end();
    }
    // pgbench's backends start with the run and end with it, taking their CPU count with them: each one's
    // last reading (at most CPU_SAMPLE_MS before it ends) stands for its total. A backend still there from
    // the schema's load is left out.
    const before = new Set((await backendCpuSeconds(admin, name)).keys());
    const cpu = new Map();
    let running = true;
    const sampling = (async () => {
      while (running) {
        for (const [pid, seconds] of await backendCpuSeconds(admin, name)) {
          if (!before.has(pid) && seconds != null) cpu.set(pid, seconds);
        }
        await new Promise((r) => setTimeout(r, CPU_SAMPLE_MS));
      }
    })();
    let run;
    try {
      run = await pgbenchScript({
        url: url.toString(),
        script: path.join(MINIMAL_DIR, "transfer.sql"),
        clients,
        duration,
      });
    } finally {
      running = false;
      await sampling;
    }
    const cpuSeconds = [...cpu.values()].reduce((sum, s) => sum + s, 0);
    return { ...run, cpuSeconds };
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function pgbenchScript({ url, script, clients, duration }) {
  const args = [
    "--no-vacuum",
    "--protocol=prepared",
    `--client=${clients}`,
    `--jobs=${Math.min(clients, 2)}`,
    `--time=${duration}`,
    `--file=${script}`,
    "--report-per-command",
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("pgbench", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.stderr.on("data", (c) => {
      out += c;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1]);
      const latency = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
      const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
      const transactions = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1]);
      if (code !== 0 || !Number.isFinite(tps)) {
        reject(new Error(`pgbench failed (${code}):\n${out.slice(-3000)}`));
        return;
      }
      resolve({ tps, latency, failed, transactions, output: out });
    });
  });
}
