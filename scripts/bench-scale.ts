// npm run bench:scale: for each step of BENCH_SCALE_STEPS (default 10000,100000,1000000) the scratch database in
// DATABASE_URL is seeded up to that many customers (a step reuses the previous one's rows), the built app is started
// against it, every customer and staff scenario (scripts/bench/scale/scenarios.ts) is measured under light mixed
// load, then the jobs (scripts/bench/scale/jobs.ts) are timed with the app stopped. Prints a table per step and the
// ratio of each p99 at the largest step to the smallest, and writes bench/SCALE.md.
//
// --smoke: steps 1000,2000 with a few samples on a database of its own (created and dropped on DATABASE_URL's
// server); exits 1 when a scenario failed or the ledger drifted. CI's small step.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateSync } from "otplib";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { createPgDatabase } from "@/server/db/client";
import { freePort, startServer, stopProcess } from "./bench/processes.mjs";
import { JOBS, type JobResult } from "./bench/scale/jobs";
import { SCENARIOS, type ScenarioContext, type SeededCustomer, timeRequest } from "./bench/scale/scenarios";
import {
  isPlainCustomer,
  kycStatusOf,
  SCALE_PASSWORD,
  type ScaleSeedReport,
  scaleEmail,
  scaleStaffEmail,
  seedScale,
} from "./bench/scale/seed";
import { buildServer, newestSourceMtime, serverOutDir } from "./build-server.mjs";
import { SERVER_NODE_FLAGS } from "./server-node-flags.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const smoke = process.argv.includes("--smoke");
/** --render: only rewrite the report from BENCH_SCALE_RESULTS (after editing it, or merging runs by hand). */
const renderOnly = process.argv.includes("--render");
const env = process.env;
const STEPS = (env.BENCH_SCALE_STEPS ?? (smoke ? "1000,2000" : "10000,100000,1000000"))
  .split(",")
  .map((s) => Number(s.trim()));
const CLIENTS = Number(env.BENCH_SCALE_CLIENTS ?? 2);
const SAMPLES = Number(env.BENCH_SCALE_SAMPLES ?? (smoke ? 4 : 200));
const RESCREEN_SECONDS = Number(env.BENCH_SCALE_RESCREEN_SECONDS ?? (smoke ? 5 : 60));
const OUT = env.BENCH_SCALE_OUT ?? (smoke ? "" : path.join(root, "bench/SCALE.md"));
const RESULTS = env.BENCH_SCALE_RESULTS ?? "";
/** Signed-in customers the clients take turns as, and customers the staff look up. */
const SIGNED_IN = 8;
const LOOKUPS = 40;

interface ScenarioFigures {
  name: string;
  who: string;
  kind: string;
  goal: string;
  samples: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  firstError?: string;
}
interface StepResult {
  customers: number;
  seed: ScaleSeedReport | null;
  scenarios: ScenarioFigures[];
  jobs: ({ name: string } & JobResult)[];
  databaseBytes: number;
  topTables: { table: string; bytes: number; rows: number }[];
  loadAverage: number[];
  at: string;
}

const usage = () => {
  console.error(
    "bench:scale needs DATABASE_URL: a scratch database it fills (created when missing), or with --smoke a server to make one on",
  );
  process.exit(2);
};
if (!env.DATABASE_URL) usage();
if (STEPS.some((s) => !Number.isInteger(s) || s <= 0) || STEPS.some((s, i) => i > 0 && s <= STEPS[i - 1]!)) {
  console.error("BENCH_SCALE_STEPS must be increasing whole numbers, e.g. 10000,100000,1000000");
  process.exit(2);
}

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function ensureDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) await admin.query(`create database "${name.replaceAll('"', "")}"`);
  } finally {
    await admin.end();
  }
}

async function dropDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}

/** dist/server/main.js, built first when missing or older than its sources (PILLAR_BUILT=1: as it is). */
async function compiledServer() {
  const main = path.join(serverOutDir, "main.js");
  if (env.PILLAR_BUILT === "1") {
    if (!fs.existsSync(main))
      throw new Error("PILLAR_BUILT=1 but dist/server/main.js is missing: npm run build");
    return main;
  }
  if (!fs.existsSync(main) || newestSourceMtime() > fs.statSync(main).mtimeMs) {
    console.info("building the server…");
    await buildServer();
  }
  return main;
}

/** An SMTP server that accepts and drops every message: the app runs with SMTP_URL as in production. */
async function startSmtpSink() {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("end", () => callback());
      stream.resume();
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const sessionCookie = (res: Response) => {
  const found = res.headers.getSetCookie().find((c) => /^(__Host-)?sid=[^;]+/.test(c));
  if (!found) throw new Error(`no session cookie (${res.status})`);
  return found.split(";")[0]!;
};

async function post(baseUrl: string, url: string, body: unknown, cookie?: string) {
  return fetch(`${baseUrl}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

async function logIn(baseUrl: string, email: string) {
  const res = await post(baseUrl, "/api/auth/login", { email, password: SCALE_PASSWORD });
  if (res.status !== 200) throw new Error(`login of ${email}: ${res.status} ${await res.text()}`);
  return sessionCookie(res);
}

/** The owner signs in and enrols a fresh authenticator (any earlier one is removed first): a staff session as the desk has. */
async function staffSession(baseUrl: string, database: ReturnType<typeof createPgDatabase>) {
  const email = scaleStaffEmail(0);
  await database.query("delete from totp_factors where user_id = (select id from users where email = $1)", [
    email,
  ]);
  await database.query("delete from recovery_codes where user_id = (select id from users where email = $1)", [
    email,
  ]);
  const cookie = await logIn(baseUrl, email);
  const enrol = await post(baseUrl, "/api/auth/totp/enroll", {}, cookie);
  if (enrol.status !== 200) throw new Error(`totp enroll: ${enrol.status} ${await enrol.text()}`);
  const { secret } = (await enrol.json()) as { secret: string };
  const confirm = await post(
    baseUrl,
    "/api/auth/totp/confirm",
    { code: generateSync({ secret, epoch: Math.floor(Date.now() / 1000) }) },
    cookie,
  );
  if (confirm.status !== 200) throw new Error(`totp confirm: ${confirm.status} ${await confirm.text()}`);
  return cookie;
}

/** Customer numbers spread over 0..customers-1 (the oldest and the newest included), each the next that fits. */
function spread(customers: number, count: number, fits: (n: number) => boolean, offset = 0) {
  const out: number[] = [];
  for (let j = 0; j < count; j++) {
    let n = Math.min(customers - 1, Math.floor(((j + 0.5) * customers) / count) + offset);
    while (n < customers - 1 && (!fits(n) || out.includes(n))) n++;
    if (fits(n) && !out.includes(n)) out.push(n);
  }
  return out;
}

async function buildContext(
  baseUrl: string,
  database: ReturnType<typeof createPgDatabase>,
  customers: number,
): Promise<ScenarioContext> {
  const signedIn = spread(customers, SIGNED_IN, isPlainCustomer);
  const payees = spread(customers, SIGNED_IN, isPlainCustomer, 3);
  const lookupNs = spread(customers, LOOKUPS, (n) => kycStatusOf(n) === "approved", 1);
  const info = await database.query<{
    n: number;
    id: string;
    first_name: string;
    last_name: string;
    address: string;
  }>(
    `select substring(u.email from 'scale-([0-9]+)@')::int as n, u.id, u.first_name, u.last_name, d.address
     from users u join deposit_addresses d on d.user_id = u.id where u.email = any($1::text[])`,
    [[...signedIn, ...lookupNs].map(scaleEmail)],
  );
  const byN = new Map(info.map((r) => [r.n, r]));
  const month = new Date();
  month.setUTCMonth(month.getUTCMonth() - 24);
  const oldMonth = month.toISOString().slice(0, 7);
  const signed: SeededCustomer[] = [];
  for (const n of signedIn) {
    const cookie = await logIn(baseUrl, scaleEmail(n));
    // The oldest page's cursor, walked once: the deep-history scenario asks for it again and again.
    let cursor: string | null = null;
    let deepCursor: string | null = null;
    for (;;) {
      const res = await fetch(
        `${baseUrl}/api/transactions?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        {
          headers: { cookie },
        },
      );
      const page = (await res.json()) as { nextCursor: string | null };
      if (!page.nextCursor) break;
      deepCursor = page.nextCursor;
      cursor = page.nextCursor;
    }
    const row = byN.get(n)!;
    signed.push({ n, id: row.id, cookie, depositAddress: row.address, deepCursor, oldMonth });
  }
  const cases = await database.query<{ id: string }>(
    "select id from compliance_cases where status = 'open' order by opened_at desc limit 20",
  );
  return {
    baseUrl,
    customers: signed,
    staffCookie: await staffSession(baseUrl, database),
    lookups: lookupNs.map((n) => {
      const r = byN.get(n)!;
      return { n, id: r.id, firstName: r.first_name, lastName: r.last_name, depositAddress: r.address };
    }),
    openCaseIds: cases.map((c) => c.id),
    payees,
  };
}

/** Light mixed load: CLIENTS clients take the scenarios' samples from one interleaved queue, each request alone. */
async function measure(ctx: ScenarioContext): Promise<ScenarioFigures[]> {
  // Warm-up: one unmeasured request per scenario (first plans, caches, JIT).
  for (const s of SCENARIOS) await timeRequest(ctx.baseUrl, s.request(ctx, 0));
  const tasks: [number, number][] = [];
  for (let i = 0; i < SAMPLES; i++) for (let s = 0; s < SCENARIOS.length; s++) tasks.push([s, i + 1]);
  // Interleaved by a fixed permutation, so each client mixes reads and writes of every kind.
  tasks.sort((a, b) => ((a[0] * 7919 + a[1] * 104729) % 1009) - ((b[0] * 7919 + b[1] * 104729) % 1009));
  const latencies = SCENARIOS.map(() => [] as number[]);
  const errors = SCENARIOS.map(() => 0);
  const firstError: (string | undefined)[] = SCENARIOS.map(() => undefined);
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < tasks.length) {
        const [s, i] = tasks[next++]!;
        const r = await timeRequest(ctx.baseUrl, SCENARIOS[s]!.request(ctx, i));
        latencies[s]!.push(r.ms);
        if (!r.ok) {
          errors[s]! += 1;
          firstError[s] ??= `${r.status} ${r.body ?? ""}`;
        }
      }
    }),
  );
  return SCENARIOS.map((s, k) => {
    const sorted = latencies[k]!.sort((a, b) => a - b);
    return {
      name: s.name,
      who: s.who,
      kind: s.kind,
      goal: s.goal,
      samples: sorted.length,
      errors: errors[k]!,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      max: sorted[sorted.length - 1] ?? 0,
      ...(firstError[k] ? { firstError: firstError[k] } : {}),
    };
  });
}

async function runStep(url: string, customers: number): Promise<StepResult> {
  const database = createPgDatabase(url, 4);
  let seed: ScaleSeedReport | null = null;
  try {
    const [{ n: have } = { n: 0 }] = await database.query<{ n: number }>(
      "select count(*)::int as n from users where pillar_tag ~ '^scale_[0-9]+$'",
    );
    if (have > customers)
      throw new Error(`the database holds ${have} customers, more than the step's ${customers}`);
    console.info(
      `\n── step ${customers.toLocaleString("en-US")} customers (${have.toLocaleString("en-US")} there) ──`,
    );
    if (have < customers) {
      seed = await seedScale(url, { customers, log: (line) => console.info(`  seed: ${line}`) });
      console.info(
        `  seeded ${seed.added.toLocaleString("en-US")} customers, ${seed.rows.toLocaleString("en-US")} rows in ${seed.seconds.toFixed(0)} s (${seed.rowsPerSecond.toLocaleString("en-US")} rows/s)`,
      );
    }

    const jobs: StepResult["jobs"] = [];
    const runJobs = async (beforeApp: boolean) => {
      for (const job of JOBS.filter((j) => Boolean(j.beforeApp) === beforeApp)) {
        const start = performance.now();
        try {
          const result = await job.run(database, {
            rescreenBudgetSeconds: RESCREEN_SECONDS,
            monitoringSamples: smoke ? 20 : 200,
          });
          jobs.push({ name: job.name, ...result });
        } catch (err) {
          // A job that fails at this size is a finding, not the end of the run.
          const cause = (err as { cause?: Error }).cause?.message ?? (err as Error).message.split("\n")[0];
          jobs.push({
            name: job.name,
            seconds: (performance.now() - start) / 1000,
            ok: false,
            note: `failed after ${((performance.now() - start) / 1000).toFixed(0)} s: ${cause}`,
          });
        }
      }
    };
    await runJobs(true);

    const smtp = await startSmtpSink();
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-scale-"));
    const main =
      env.BENCH_SCALE_RUNNER === "tsx" ? path.join(root, "server/main.ts") : await compiledServer();
    const server = await startServer({
      name: "app server",
      args: [...(env.BENCH_SCALE_RUNNER === "tsx" ? ["--import", "tsx"] : SERVER_NODE_FLAGS), main],
      cwd: root,
      readyUrl: `${baseUrl}/readyz`,
      timeoutMs: 180_000,
      env: {
        ...env,
        NODE_ENV: "production",
        DATABASE_URL: url,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        SESSION_SECRET: randomBytes(32).toString("hex"),
        DATA_KEY: randomBytes(32).toString("hex"),
        RATE_LIMIT_SCALE: "1000000",
        TRANSFER_DAILY_COUNT_LIMIT: "1000000",
        LOG_LEVEL: env.LOG_LEVEL ?? "warn",
        SMTP_URL: smtp.url,
        MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? "2",
      },
    });
    let scenarios: ScenarioFigures[];
    try {
      const ctx = await buildContext(baseUrl, database, customers);
      scenarios = await measure(ctx);
    } finally {
      await stopProcess(server.child);
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }

    await runJobs(false);
    const [size] = await database.query<{ bytes: string }>(
      "select pg_database_size(current_database())::text as bytes",
    );
    const top = await database.query<{ table: string; bytes: string; rows: string }>(
      `select c.relname as table, pg_total_relation_size(c.oid)::text as bytes, c.reltuples::bigint::text as rows
       from pg_class c join pg_namespace s on s.oid = c.relnamespace
       where s.nspname = 'public' and c.relkind in ('r', 'p') order by pg_total_relation_size(c.oid) desc limit 10`,
    );
    const result: StepResult = {
      customers,
      seed,
      scenarios,
      jobs,
      databaseBytes: Number(size!.bytes),
      topTables: top.map((t) => ({ table: t.table, bytes: Number(t.bytes), rows: Number(t.rows) })),
      loadAverage: os.loadavg(),
      at: new Date().toISOString(),
    };
    printStep(result);
    return result;
  } finally {
    await database.close();
  }
}

function printStep(r: StepResult) {
  console.info(`\n${r.customers.toLocaleString("en-US")} customers — p50 / p99 / max ms (samples, errors)`);
  for (const s of r.scenarios) {
    console.info(
      `  ${s.name.padEnd(56)} ${ms(s.p50).padStart(7)} ${ms(s.p99).padStart(7)} ${ms(s.max).padStart(7)}  (${s.samples}${s.errors ? `, ${s.errors} errors: ${s.firstError}` : ""})`,
    );
  }
  for (const j of r.jobs) {
    const per = j.p99 !== undefined ? ` p50 ${ms(j.p50!)} ms p99 ${ms(j.p99)} ms` : "";
    console.info(
      `  job ${j.name.padEnd(52)} ${j.seconds === null ? "—" : `${j.seconds.toFixed(1)} s`}${per}  ${j.ok ? "" : "FAILED "}${j.note}`,
    );
  }
  console.info(
    `  database ${mib(r.databaseBytes)}; ${r.topTables
      .slice(0, 5)
      .map((t) => `${t.table} ${mib(t.bytes)}`)
      .join(", ")}`,
  );
}

const ratioOf = (first: StepResult, last: StepResult, name: string) => {
  const a = first.scenarios.find((s) => s.name === name);
  const b = last.scenarios.find((s) => s.name === name);
  return a && b && a.p99 > 0 ? b.p99 / a.p99 : null;
};

function goalMark(steps: StepResult[], name: string, goal: string) {
  const first = steps[0]!;
  const last = steps[steps.length - 1]!;
  if (goal === "customer") {
    const r = ratioOf(first, last, name);
    return steps.length < 2 || r === null ? "—" : r <= 1.5 ? "✓" : "✗";
  }
  if (goal === "search") {
    // Over the steps that measured it (a scenario added later is "—" at the steps before it).
    const measured = steps.flatMap((s) => s.scenarios.filter((x) => x.name === name));
    return measured.length > 0 && measured.every((x) => x.p99 <= 100) ? "✓" : "✗";
  }
  return "";
}

function render(steps: StepResult[], machine: Machine): string {
  const first = steps[0]!;
  const last = steps[steps.length - 1]!;
  const head = steps.map((s) => `${s.customers.toLocaleString("en-US")} p50 / p99`);
  const lines: string[] = [];
  lines.push("# Pillar at scale (`npm run bench:scale`)", "");
  lines.push(
    "Decision 065: every customer and staff read and write as fast at 1 M customers as at 10 k (p99 at the largest step ≤ 1.5 × at the smallest), back-office search p99 ≤ 100 ms. This file is written by `scripts/bench-scale.ts`; rerun it to refresh.",
    "",
    "## Method",
    "",
    `- Each step seeds the scratch database up to that many customers with \`scripts/bench/scale/seed.ts\` (set-based SQL, deterministic per (seed, n); a step adds only the customers the previous one lacks): ~60 history rows per customer over three years with their journal entries and postings, transfer requests, $tag payments, chat, notifications, sessions, audit and access-log rows, deposit addresses, 5 whale addresses paid by 5 % of customers, 100,000 staff actions, 1,000 open compliance cases (decision 065); then \`VACUUM (ANALYZE)\`, as autovacuum would have (it is off on these machines: unvacuumed, the measured reads would set every row's hint bits).`,
    `- The built app (\`dist/server/main.js\`, NODE_ENV=production, RATE_LIMIT_SCALE=1000000) is started on the step's database; ${SIGNED_IN} customers spread over the whole range sign in, and the owner signs in with a TOTP second factor enrolled in code.`,
    `- Light mixed load: ${CLIENTS} concurrent clients take ${SAMPLES} samples of every scenario from one interleaved queue (one warm-up request per scenario first); latency is measured at the client over HTTP on 127.0.0.1, response body read in full.`,
    "- The jobs run in-process against the database with the app stopped (`scripts/bench/scale/jobs.ts`): housekeeping before the app starts (its first sweep after seeding would otherwise run inside the measurement), the others after. The re-screen stops after its budget and is extrapolated: time = customers ÷ the measured rate.",
    "- Goals: customer rows ✓ when p99 at the largest step ≤ 1.5 × p99 at the smallest; staff search rows ✓ when p99 ≤ 100 ms at every step that measured them. The p50 ratio is printed beside the p99 ratio: with 200 samples a p99 is the second-slowest request, which is one that queued behind the other client's PDF or write on two cores, so a p99 ratio moves by ±0.5 between runs of the same code while the p50s do not.",
    "",
    "## Machine",
    "",
    machine.text,
    "",
    "## Seeding and size",
    "",
    "| customers | added | rows written | seconds | rows/s | database | largest tables | load average at the step's end |",
    "|---:|---:|---:|---:|---:|---:|---|---:|",
  );
  for (const s of steps) {
    lines.push(
      `| ${s.customers.toLocaleString("en-US")} | ${s.seed?.added.toLocaleString("en-US") ?? "(seeded before)"} | ${s.seed?.rows.toLocaleString("en-US") ?? "—"} | ${s.seed ? s.seed.seconds.toFixed(0) : "—"} | ${s.seed?.rowsPerSecond.toLocaleString("en-US") ?? "—"} | ${mib(s.databaseBytes)} | ${s.topTables
        .slice(0, 5)
        .map((t) => `${t.table} ${mib(t.bytes)}`)
        .join(", ")} | ${s.loadAverage.map((v) => v.toFixed(1)).join(" / ")} |`,
    );
  }
  const seeded = steps.filter((s) => s.seed && s.seed.added > 0);
  const top = seeded.at(-1);
  if (top && last.customers < 1_000_000) {
    // The largest step's rate is the slowest (indexes grow): the arithmetic for the 1 M step takes it.
    const perCustomer = top.seed!.seconds / top.seed!.added;
    const bytesPerCustomer = last.databaseBytes / last.customers;
    const toMillion = 1_000_000 - last.customers;
    const hourCustomers = Math.floor((50 * 60) / perCustomer / 10_000) * 10_000;
    lines.push(
      "",
      `**The 1 M step, by arithmetic.** From ${last.customers.toLocaleString("en-US")} customers, ${toMillion.toLocaleString("en-US")} more at the largest step's rate (${(perCustomer * 1000).toFixed(1)} s per 1,000 customers) is ${((perCustomer * toMillion) / 60).toFixed(0)} minutes of seeding, and the database would hold about ${mib(bytesPerCustomer * 1_000_000)} (${mib(bytesPerCustomer * 1000)} per 1,000 customers, linear in customers)${machine.freeBytes === null ? "" : ` on a disk with ${mib(machine.freeBytes + last.databaseBytes)} for it (free plus what this database holds)`}. The issue's hour for the top step (seed and run) leaves ~50 minutes of seeding after ~10 of measuring: at this rate about ${hourCustomers.toLocaleString("en-US")} customers from an empty database, so ${last.customers.toLocaleString("en-US")} is the largest step measured here${machine.freeBytes !== null && bytesPerCustomer * 1_000_000 > machine.freeBytes + last.databaseBytes ? ", and 1 M would not fit on the disk at all" : ""}.`,
    );
  }
  lines.push("", "## Requests (ms)", "");
  lines.push(`| scenario | ${head.join(" | ")} | p99 ratio | p50 ratio | goal |`);
  lines.push(`|---|${steps.map(() => "---:").join("|")}|---:|---:|:---:|`);
  for (const sc of first.scenarios) {
    const cells = steps.map((s) => {
      const f = s.scenarios.find((x) => x.name === sc.name);
      return f ? `${ms(f.p50)} / ${ms(f.p99)}${f.errors ? ` (${f.errors} err)` : ""}` : "—";
    });
    const r = ratioOf(first, last, sc.name);
    const a = first.scenarios.find((x) => x.name === sc.name);
    const b = last.scenarios.find((x) => x.name === sc.name);
    const r50 = a && b && a.p50 > 0 ? b.p50 / a.p50 : null;
    lines.push(
      `| ${sc.name} | ${cells.join(" | ")} | ${r === null || steps.length < 2 ? "—" : r.toFixed(2)} | ${r50 === null || steps.length < 2 ? "—" : r50.toFixed(2)} | ${goalMark(steps, sc.name, sc.goal)} |`,
    );
  }
  lines.push("", "## Jobs", "");
  lines.push(
    `| job | ${steps.map((s) => s.customers.toLocaleString("en-US")).join(" | ")} | note at the largest step |`,
  );
  lines.push(`|---|${steps.map(() => "---:").join("|")}|---|`);
  for (const job of first.jobs) {
    const cells = steps.map((s) => {
      const j = s.jobs.find((x) => x.name === job.name);
      if (!j || j.seconds === null) return "—";
      return j.p99 !== undefined ? `p50 ${ms(j.p50!)} ms, p99 ${ms(j.p99)} ms` : `${j.seconds.toFixed(1)} s`;
    });
    lines.push(
      `| ${job.name} | ${cells.join(" | ")} | ${last.jobs.find((x) => x.name === job.name)?.note ?? ""} |`,
    );
  }
  const errors = steps.flatMap((s) =>
    s.scenarios
      .filter((x) => x.errors > 0)
      .map((x) => `- ${s.customers}: ${x.name}: ${x.errors} × ${x.firstError}`),
  );
  if (errors.length > 0) lines.push("", "## Failed requests", "", ...errors);
  return `${lines.join("\n")}\n`;
}

interface Machine {
  text: string;
  /** Free bytes on the database's disk (when PostgreSQL runs on this machine), for the top step's arithmetic. */
  freeBytes: number | null;
}

async function machineText(url: string): Promise<Machine> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(
    "select version() as v, current_setting('shared_buffers') as sb, current_setting('max_wal_size') as wal",
  );
  // Superusers only; a bench on another role or machine reports no free space.
  const dataDir = await client
    .query("select current_setting('data_directory') as dir")
    .then((r) => String(r.rows[0].dir))
    .catch(() => null);
  await client.end();
  let freeBytes: number | null = null;
  try {
    if (dataDir) {
      const fsStats = fs.statfsSync(dataDir);
      freeBytes = fsStats.bavail * fsStats.bsize;
    }
  } catch {
    freeBytes = null;
  }
  const cpu = os.cpus();
  const text = [
    `- ${cpu.length} × ${cpu[0]?.model ?? "CPU"}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}`,
    `- ${String(rows[0].v).split(" on ")[0]} (shared_buffers ${rows[0].sb}, max_wal_size ${rows[0].wal}), on the same machine${freeBytes === null ? "" : `; ${mib(freeBytes)} free on its disk when this was written`}`,
    `- Node ${process.version}; the load average (1, 5, 15 min) at each step's end is in the size table`,
    ...(env.BENCH_SCALE_NOTE ? [`- ${env.BENCH_SCALE_NOTE}`] : []),
  ].join("\n");
  return { text, freeBytes };
}

async function main() {
  const serverUrl = env.DATABASE_URL!;
  if (renderOnly) {
    if (!RESULTS || !OUT)
      throw new Error("--render needs BENCH_SCALE_RESULTS and an output (BENCH_SCALE_OUT)");
    const all: StepResult[] = JSON.parse(fs.readFileSync(RESULTS, "utf8"));
    fs.writeFileSync(OUT, render(all, await machineText(serverUrl)));
    console.info(`wrote ${path.relative(root, OUT)}`);
    return;
  }
  const url = smoke ? withDatabase(serverUrl, `pillar_scale_smoke_${process.pid}`) : serverUrl;
  await ensureDatabase(url);
  try {
    const migrating = createPgDatabase(url, 2);
    await migrating.migrate();
    await migrating.close();
    const results: StepResult[] = [];
    for (const step of STEPS) results.push(await runStep(url, step));

    let all = results;
    if (RESULTS) {
      const earlier: StepResult[] = fs.existsSync(RESULTS)
        ? JSON.parse(fs.readFileSync(RESULTS, "utf8"))
        : [];
      const merged = new Map(earlier.map((r) => [r.customers, r]));
      for (const r of results) merged.set(r.customers, r);
      all = [...merged.values()].sort((a, b) => a.customers - b.customers);
      fs.writeFileSync(RESULTS, `${JSON.stringify(all, null, 2)}\n`);
    }
    if (all.length > 1) {
      const first = all[0]!;
      const last = all[all.length - 1]!;
      console.info(
        `\np99 at ${last.customers.toLocaleString("en-US")} ÷ p99 at ${first.customers.toLocaleString("en-US")}:`,
      );
      for (const s of first.scenarios) {
        const r = ratioOf(first, last, s.name);
        console.info(
          `  ${s.name.padEnd(56)} ${r === null ? "—" : r.toFixed(2)} ${goalMark(all, s.name, s.goal)}`,
        );
      }
    }
    if (OUT) {
      fs.mkdirSync(path.dirname(OUT), { recursive: true });
      fs.writeFileSync(OUT, render(all, await machineText(url)));
      console.info(`\nwrote ${path.relative(root, OUT)}`);
    }
    const failures = [
      ...results.flatMap((r) =>
        r.scenarios.filter((s) => s.errors > 0).map((s) => `${r.customers}: ${s.name}: ${s.firstError}`),
      ),
      ...results.flatMap((r) =>
        r.jobs.filter((j) => !j.ok).map((j) => `${r.customers}: ${j.name}: ${j.note}`),
      ),
    ];
    if (failures.length > 0) {
      console.error(`\n${failures.length} failure(s):\n  ${failures.join("\n  ")}`);
      process.exitCode = 1;
    }
  } finally {
    if (smoke) await dropDatabase(url);
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: Error) => {
    console.error(err);
    process.exit(1);
  },
);
