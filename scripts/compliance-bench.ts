// `npm run bench:compliance`: the transaction-monitoring rules and the sanctions name matcher on a synthetic
// labelled population of 10,000 customers (fixed seed); per rule precision, recall and alerts per 1,000
// customers, name screening's precision, recall and throughput. Figures go to bench/COMPLIANCE.md by hand.
import { DEFAULT_APPROVAL_THRESHOLD_CENTS } from "@/contract/approvals";
import { DEFAULT_SANCTIONS_NAME_THRESHOLD } from "@/contract/compliance";
import { DAILY_LIMIT_CENTS } from "@/contract/transfers";
import { measureNameScreening } from "@/server/features/monitoring/name-population";
import { generatePopulation, measureMonitoring } from "@/server/features/monitoring/population";
import { defaultMonitoringConfig } from "@/server/features/monitoring/rules";

const SEED = 20261126;
const size = Number(process.env.BENCH_CUSTOMERS ?? 10_000);
const limits = {
  approvalThresholdCents: DEFAULT_APPROVAL_THRESHOLD_CENTS,
  dailyLimitCents: DAILY_LIMIT_CENTS,
};
const f = (v: number) => v.toFixed(3);

const generated = performance.now();
const population = generatePopulation(SEED, size, limits);
const generateMs = performance.now() - generated;
const m = measureMonitoring(population, defaultMonitoringConfig(limits));
console.info(
  `Population: ${m.customers} customers (${m.normalCustomers} normal), seed ${SEED}; ${m.events} money events in the month measured (generated in ${Math.round(generateMs)} ms, rules run in ${Math.round(m.evaluateMs)} ms wall clock: ${Math.round((m.events / m.evaluateMs) * 1000)} events/s).`,
);
console.info(
  "| rule | alerts | on its typology | on normal customers | precision | recall | alerts per 1,000 customers |",
);
console.info("|---|---|---|---|---|---|---|");
for (const r of m.rules) {
  console.info(
    `| ${r.rule} | ${r.alerts} | ${r.truePositives} | ${r.onNormal} | ${f(r.precision)} | ${f(r.recall)} | ${r.alertsPer1000.toFixed(1)} |`,
  );
}
console.info(
  `\nAlerts per 1,000 customers a month: ${m.alertsPer1000PerMonth.toFixed(1)} in all, ${m.normalAlertsPer1000PerMonth.toFixed(1)} on normal customers (goal < 20).`,
);
const lowest = Math.min(...m.rules.map((r) => r.recall));
console.info(`Lowest typology recall: ${f(lowest)} (goal >= 0.9).`);

// Precision and recall over the whole population against the labelled listed names among 2,000 invented ones;
// throughput on a sample against a list the size of OFAC's SDN names and aliases (about 18,000).
const s = measureNameScreening(SEED, size, 2_000, DEFAULT_SANCTIONS_NAME_THRESHOLD);
console.info(
  `\nName screening at ${DEFAULT_SANCTIONS_NAME_THRESHOLD}: ${s.customers} customers against ${s.listedNames} listed names: precision ${f(s.precision)}, recall ${f(s.recall)} (${s.truePositives} found, ${s.falseNegatives} missed, ${s.falsePositives} false hits), ${Math.round(s.namesPerSecond)} names/s (${Math.round(s.cpuNamesPerSecond)} per CPU second).`,
);
const big = measureNameScreening(SEED + 1, 500, 18_000, DEFAULT_SANCTIONS_NAME_THRESHOLD);
console.info(
  `Screening throughput against ${big.listedNames} listed names: ${Math.round(big.namesPerSecond)} names/s wall clock, ${Math.round(big.cpuNamesPerSecond)} per CPU second, one thread (${big.customers} names screened).`,
);
if (lowest < 0.9 || m.normalAlertsPer1000PerMonth >= 20 || s.precision < 0.95 || s.recall < 0.95) {
  console.info("A goal is not met.");
  process.exitCode = 1;
}
