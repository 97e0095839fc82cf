// `tsx scripts/bench/jobs-scale.ts <database-url> <customers>`: the jobs of decision 062 on the scale seeder's
// bank. Migrates the database at the URL (kept between steps: 10,000 then 100,000 adds only the difference), seeds
// it up to <customers>, then times ledger:verify, the month-end statement run for last month and a housekeeping
// sweep, each as the CLI or the jobs room runs it. The figures go to bench/SCREENING-RESCREEN.md's jobs section.
import { performance } from "node:perf_hooks";
import { seedScale } from "@/scripts/bench/scale/seed";
import { createPgDatabase } from "@/server/db/client";
import { previousMonth, runStatementsToEnd } from "@/server/features/statements/statement-run";
import { sweepExpired } from "@/server/lib/housekeeping";
import { verifyLedger } from "@/server/lib/ledger";

const [url, customersArg] = process.argv.slice(2);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
  if (!url || !customersArg) throw new Error("usage: jobs-scale.ts <database-url> <customers>");
  const customers = Number(customersArg);
  const database = createPgDatabase(url, 4);
  try {
    await database.migrate();
    let t0 = performance.now();
    const seeded = await seedScale(url, { customers });
    console.info(
      `seeded to ${seeded.customers} customers (+${seeded.added}) in ${seconds(performance.now() - t0)}`,
    );
    const [size] = await database.query<{ postings: string; accounts: string }>(
      "select (select count(*) from postings)::text as postings, (select count(*) from ledger_accounts)::text as accounts",
    );
    console.info(`  ${size?.postings} postings, ${size?.accounts} ledger accounts`);

    t0 = performance.now();
    const report = await verifyLedger(database.db);
    const verifyMs = performance.now() - t0;
    console.info(
      `ledger:verify: ${report.entries} entries, ${report.accounts} accounts in ${seconds(verifyMs)}, ok=${report.ok}` +
        (report.ok ? "" : ` (${report.problems.slice(0, 3).join("; ")})`),
    );

    const month = previousMonth();
    await database.query("delete from statements where month = $1", [month]);
    await database.query("delete from statement_runs where month = $1", [month]);
    t0 = performance.now();
    const run = await runStatementsToEnd(database.db, month);
    const runMs = performance.now() - t0;
    console.info(
      `statement run ${month}: ${run.done} customers in ${seconds(runMs)}, ${Math.round(run.done / (runMs / 1000))}/s`,
    );

    t0 = performance.now();
    const swept = await sweepExpired(database.db);
    console.info(`housekeeping: ${JSON.stringify(swept)} in ${seconds(performance.now() - t0)}`);
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(err);
    process.exit(1);
  },
);
