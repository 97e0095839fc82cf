// `npm run bench:interest`: savings interest (decisions 068 and 072) on real PostgreSQL at 100,000 and 1,000,000 savings
// accounts (BENCH_INTEREST_STEPS to change). Each step is a throwaway database on DATABASE_URL's server with the
// savers seeded set-based (scripts/bench/seed-savers.ts), opened on the last day of last month: the accrual of that
// one day (what the jobs room does every day) and the month's credit are timed as the job's passes run here, a
// batch of 5,000 accounts a statement. Goal (bench/INTEREST.md): the daily accrual of 1 M accounts in ≤ 5
// min. Writes bench/INTEREST.md.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { seedSavers } from "@/scripts/bench/seed-savers";
import { INTEREST_BATCH, interestPass } from "@/server/features/savings/interest";
import { verifyLedger } from "@/server/lib/ledger";
import { createScratchDatabase } from "@/tests/support/scratch-database";

const STEPS = (process.env.BENCH_INTEREST_STEPS ?? "100000,1000000").split(",").map(Number);
const OUT = path.join(import.meta.dirname, "..", "bench", "INTEREST.md");
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The last day of the month before the one New York is in now. */
function lastDayOfLastMonth(): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
  const first = new Date(`${today.slice(0, 8)}01T12:00:00Z`);
  first.setUTCDate(0);
  return first.toISOString().slice(0, 10);
}

interface StepResult {
  accounts: number;
  seedMs: number;
  accrualMs: number;
  accrualBatches: number;
  creditMs: number;
  creditBatches: number;
  verifyMs: number;
}

async function runStep(serverUrl: string, accounts: number): Promise<StepResult> {
  const scratch = await createScratchDatabase(serverUrl);
  try {
    const { database } = scratch;
    const day = lastDayOfLastMonth();
    let t0 = performance.now();
    await seedSavers(database, accounts, day);
    const seedMs = performance.now() - t0;
    console.info(`  seeded ${accounts.toLocaleString("en-US")} savers in ${seconds(seedMs)}`);
    const result = {
      accounts,
      seedMs,
      accrualMs: 0,
      accrualBatches: 0,
      creditMs: 0,
      creditBatches: 0,
      verifyMs: 0,
    };
    for (;;) {
      t0 = performance.now();
      const pass = await interestPass(database.db, day);
      const ms = performance.now() - t0;
      if (pass.kind === "idle") break;
      if (pass.kind === "accrual") {
        result.accrualMs += ms;
        result.accrualBatches++;
      } else {
        result.creditMs += ms;
        result.creditBatches++;
      }
    }
    const [check] = await database.query<{ accrued: number; credited: number }>(
      `select (select count(*)::int from savings_accounts where accrued_through = $1::date) as accrued,
              (select count(*)::int from savings_interest where credited_cents is not null) as credited`,
      [day],
    );
    if (check?.accrued !== accounts || check?.credited !== accounts)
      throw new Error(`not every account accrued and credited: ${JSON.stringify(check)}`);
    t0 = performance.now();
    const report = await verifyLedger(database.db);
    result.verifyMs = performance.now() - t0;
    if (!report.ok) throw new Error(`ledger drift: ${report.problems.slice(0, 5).join("; ")}`);
    console.info(
      `  accrual ${seconds(result.accrualMs)} (${result.accrualBatches} batches), credit ${seconds(result.creditMs)} ` +
        `(${result.creditBatches} batches), ledger:verify ${seconds(result.verifyMs)}`,
    );
    return result;
  } finally {
    await scratch.drop();
  }
}

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error("bench:interest needs a PostgreSQL server in DATABASE_URL");
  const results: StepResult[] = [];
  for (const accounts of STEPS) {
    console.info(`step: ${accounts.toLocaleString("en-US")} savings accounts`);
    results.push(await runStep(serverUrl, accounts));
  }
  const perSecond = (n: number, ms: number) => Math.round(n / (ms / 1000)).toLocaleString("en-US");
  const rows = results.map(
    (r) =>
      `| ${r.accounts.toLocaleString("en-US")} | ${seconds(r.seedMs)} | ${seconds(r.accrualMs)} | ` +
      `${perSecond(r.accounts, r.accrualMs)} | ${seconds(r.creditMs)} | ${perSecond(r.accounts, r.creditMs)} | ` +
      `${seconds(r.verifyMs)} |`,
  );
  const first = results[0]!;
  const last = results.at(-1)!;
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const text = `# Savings interest at scale (\`npm run bench:interest\`)

Decisions 068 and 072. Each step is a scratch database on PostgreSQL with that many savers (one deposit each, opened on the
last day of last month), and the interest job's passes run to the end here in batches of ${INTEREST_BATCH.toLocaleString("en-US")}
accounts: the **daily accrual** of that day for every account (what the jobs room does each day), then the **month's
credit** (two journal entries per account, the sub-cent carried). Goal: the daily accrual of 1,000,000
accounts in ≤ 5 min.

| savings accounts | seed | daily accrual | accounts/s | month-end credit | accounts/s | ledger:verify |
|---:|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}

Time per account, ${last.accounts.toLocaleString("en-US")} ÷ ${first.accounts.toLocaleString("en-US")} (1.00 is linear): accrual ${ratio(last.accrualMs / last.accounts, first.accrualMs / first.accounts)}, credit ${ratio(last.creditMs / last.accounts, first.creditMs / first.accounts)}.

Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), PostgreSQL on the same machine, one client.
${process.env.BENCH_INTEREST_NOTE ? `\n${process.env.BENCH_INTEREST_NOTE}\n` : ""}`;
  fs.writeFileSync(OUT, text);
  console.info(`\nwrote ${path.relative(process.cwd(), OUT)}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
