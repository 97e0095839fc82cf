// `npm run bench:rescreen`: the re-screen job (decision 053) on 100,000 customers on real PostgreSQL. A throwaway
// database on DATABASE_URL's server gets the customers (generate_series), the real OFAC extract of 2024-05-03 is
// loaded (which queues the run), and the job's passes run here to the end, as the jobs room runs them. Prints
// customers per second; the figure goes to bench/SCREENING-RESCREEN.md, whose goal is 100,000 in ≤ 60 s.
import { performance } from "node:perf_hooks";
import { DEFAULT_SANCTIONS_NAME_THRESHOLD } from "@/contract/compliance";
import { LISTED, seedCustomers } from "@/scripts/bench/seed-customers";
import { loadSanctionsList } from "@/server/features/compliance/load-sanctions-list";
import { RESCREEN_BATCH, runRescreenToEnd } from "@/server/features/compliance/rescreen";
import { activeSanctionsIndex } from "@/server/features/compliance/sanctions-index";
import { nameHits, nameScreener } from "@/server/features/compliance/screen";
import { realListFiles } from "@/tests/support/real-ofac-list";
import { createScratchDatabase } from "@/tests/support/scratch-database";

const CUSTOMERS = Number(process.env.RESCREEN_BENCH_CUSTOMERS ?? 100_000);
const LISTED_EVERY = 1_000;
const threshold = Number(process.env.SANCTIONS_NAME_THRESHOLD ?? DEFAULT_SANCTIONS_NAME_THRESHOLD);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error("bench:rescreen needs a PostgreSQL server in DATABASE_URL");
  const scratch = await createScratchDatabase(serverUrl);
  try {
    const { database } = scratch;
    let t0 = performance.now();
    const listed = await seedCustomers(database, CUSTOMERS, LISTED_EVERY, "bench");
    await database.query("analyze");
    console.info(
      `seeded ${CUSTOMERS.toLocaleString("en-US")} customers with KYC in ${seconds(performance.now() - t0)}`,
    );

    t0 = performance.now();
    const list = await loadSanctionsList(database.db, realListFiles(), {
      actorId: null,
      actorRole: null,
      source: "cli",
    });
    console.info(
      `loaded the real list (${list.entryCount} entries, ${list.nameCount} names) in ${seconds(performance.now() - t0)}`,
    );
    t0 = performance.now();
    const index = await activeSanctionsIndex(database.db);
    console.info(`built the index in ${seconds(performance.now() - t0)} (a running server has it already)`);

    // One name, as a screening point screens it: the in-memory part of a KYC or payee screen.
    const sample = await database.query<{ first_name: string; last_name: string; date_of_birth: string }>(
      "select first_name, last_name, date_of_birth::text from kyc_applications order by random() limit 2000",
    );
    const latencies: number[] = [];
    for (const s of sample) {
      const start = performance.now();
      nameHits(
        index!,
        {
          names: [{ value: `${s.first_name} ${s.last_name}`, type: "person", dateOfBirth: s.date_of_birth }],
        },
        threshold,
      );
      latencies.push(performance.now() - start);
    }
    latencies.sort((a, b) => a - b);

    // The in-memory half of a batch, the old way (every customer's names screened alone) against a batch's
    // screener (each distinct name once, decision 062), on the same 10,000 KYC names under the same load.
    const kyc = await database.query<{ first_name: string; last_name: string; date_of_birth: string }>(
      "select first_name, last_name, date_of_birth::text from kyc_applications order by user_id limit 10000",
    );
    const subjects = kyc.map((k) => ({
      names: [
        { value: `${k.first_name} ${k.last_name}`, type: "person" as const, dateOfBirth: k.date_of_birth },
      ],
    }));
    let t1 = performance.now();
    for (const subject of subjects) nameHits(index!, subject, threshold);
    const aloneMs = performance.now() - t1;
    t1 = performance.now();
    for (let i = 0; i < subjects.length; i += RESCREEN_BATCH) {
      const screen = nameScreener(index!, threshold);
      for (const subject of subjects.slice(i, i + RESCREEN_BATCH)) screen(subject);
    }
    const sharedMs = performance.now() - t1;
    console.info(
      `in memory, ${subjects.length.toLocaleString("en-US")} customers: each alone ${seconds(aloneMs)}, ` +
        `a batch's distinct names once ${seconds(sharedMs)} (${(aloneMs / sharedMs).toFixed(1)}×)`,
    );

    let batches = 0;
    t0 = performance.now();
    const run = await runRescreenToEnd(database.db, threshold, list.id, {
      onBatch: () => {
        batches += 1;
      },
    });
    const ms = performance.now() - t0;
    const [hits] = await database.query<{ n: number; listed: number }>(
      "select count(*)::int as n, count(*) filter (where ent_num = $1)::int as listed from compliance_hits",
      [LISTED.entNum],
    );
    console.info("");
    console.info(
      `re-screen: ${run.customers.toLocaleString("en-US")} customers in ${seconds(ms)} (${batches} batches of ${RESCREEN_BATCH})`,
    );
    console.info(`  ${Math.round(run.customers / (ms / 1000)).toLocaleString("en-US")} customers/s`);
    console.info(
      `  ${run.newHits} new hits (${hits?.listed} of ${listed} seeded listed customers; ${hits?.n} in all)`,
    );
    console.info(
      `  goal: 100,000 customers in ≤ 60 s: ${CUSTOMERS >= 100_000 && ms <= 60_000 ? "met" : CUSTOMERS >= 100_000 ? "NOT met" : "not measured (fewer customers)"}`,
    );
    console.info(
      `one name screened in memory (${latencies.length} KYC names): p50 ${quantile(latencies, 0.5).toFixed(2)} ms, p99 ${quantile(latencies, 0.99).toFixed(2)} ms, max ${latencies[latencies.length - 1]!.toFixed(2)} ms`,
    );
  } finally {
    await scratch.drop();
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(err);
    process.exit(1);
  },
);
