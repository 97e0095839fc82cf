// `npm run bench:compliance`: the production monitoring rules (`evaluateRules`, `defaultMonitoringConfig`) over the
// frozen scenarios of decision 054 (scripts/monitoring-scenarios, 10,000 customers, a year of history and one
// month measured): recall per typology, per evasion variant and per carrier, which rules fired, alerts per
// 1,000 normal customers a month overall and per kind, events judged per second. Figures go to
// bench/COMPLIANCE.md by hand. BENCH_FEED=today gives the rules only what today's live path feeds them (no
// $tag payment judged). BENCH_CUSTOMERS=n measures another size (not the frozen population).
// Name screening is measured by `npm run bench:screening` on the real OFAC extract, no longer here.
import { fingerprintScenarios } from "@/scripts/monitoring-scenarios/fingerprint";
import {
  BENCH_CUSTOMERS,
  BENCH_TYPOLOGY_SHARE,
  generateScenarios,
  SEED,
} from "@/scripts/monitoring-scenarios/generate";
import {
  type Feed,
  measureScenarios,
  type NormalRow,
  type Recall,
} from "@/scripts/monitoring-scenarios/measure";
import { TYPOLOGY_FORMS } from "@/scripts/monitoring-scenarios/typologies";
import { LIMITS } from "@/scripts/monitoring-scenarios/world";
import { defaultMonitoringConfig } from "@/server/features/monitoring/rules";
import frozen from "@/tests/fixtures/monitoring-scenarios/FROZEN.json";

const feed = (process.env.BENCH_FEED ?? "all") as Feed;
if (feed !== "all" && feed !== "today") throw new Error("BENCH_FEED is all or today");
const size = Number(process.env.BENCH_CUSTOMERS ?? BENCH_CUSTOMERS);

const generated = performance.now();
const scenarios = generateScenarios({ customers: size, typologyShare: BENCH_TYPOLOGY_SHARE });
const generateMs = performance.now() - generated;
const print = fingerprintScenarios(scenarios);
const isFrozen = print.sha256 === frozen.bench.sha256;
const m = measureScenarios(scenarios, defaultMonitoringConfig(LIMITS), { feed });

const f = (v: number) => v.toFixed(2);
const rules = (r: Record<string, number>) =>
  Object.entries(r)
    .sort(([, a], [, b]) => b - a)
    .map(([rule, n]) => `${rule} ${n}`)
    .join(", ") || "–";
const recallTable = (title: string, rows: Recall[]) => {
  console.info(
    `\n| ${title} | customers | found | recall | rules that fired (customers) |\n|---|---|---|---|---|`,
  );
  for (const r of rows)
    console.info(`| ${r.key} | ${r.total} | ${r.found} | ${f(r.recall)} | ${rules(r.rules)} |`);
};
const normalLine = (r: NormalRow) =>
  `| ${r.kind} | ${r.customers} | ${r.alerts} | ${r.alertedCustomers} | ${r.alertsPer1000.toFixed(1)} | ${rules(r.rules)} |`;

console.info(
  `Scenarios: seed ${SEED}, ${print.customers} customers (${m.normal.customers} normal), ${print.events} events, ${print.measuredEvents} in the month measured; generated in ${Math.round(generateMs)} ms; ${isFrozen ? "the frozen population (FROZEN.json)" : "NOT the frozen population"}.`,
);
console.info(
  `Rules fed: ${feed === "all" ? "every event, $tag payments, requests and schedules included" : "what today's live path feeds (no $tag payment judged; one received is a credit in the history)"}. ${m.evaluatedEvents} events judged (the month and the longest cooldown before it) in ${Math.round(m.evaluateMs)} ms wall clock: ${Math.round(m.eventsPerSecond)} events/s.`,
);
recallTable("typology (collection: groups)", m.typologies);
console.info(
  `| ${m.collectionMembers.key} | ${m.collectionMembers.total} | ${m.collectionMembers.found} | ${f(m.collectionMembers.recall)} | ${rules(m.collectionMembers.rules)} |`,
);
recallTable("typology / variant", m.variants);
recallTable("typology / carrier", m.carriers);
console.info(
  "\n| normal kind | customers | alerts in the month | customers alerted | alerts per 1,000 a month | rules (alerts) |\n|---|---|---|---|---|---|",
);
for (const r of m.normalKinds) console.info(normalLine(r));
console.info(normalLine({ ...m.normal, kind: "**all normal customers**" }));

const lowTypology = m.typologies.filter((r) => r.recall < 0.9);
const lowVariant = m.variants.filter((r) => r.recall < 0.9);
console.info(
  `\nLowest typology recall: ${f(Math.min(...m.typologies.map((r) => r.recall)))}; typologies under 0.9: ${lowTypology.length} of ${m.typologies.length}; variants under 0.9: ${lowVariant.length} of ${m.variants.length} (goal: none).`,
);
console.info(`Alerts per 1,000 normal customers a month: ${m.normal.alertsPer1000.toFixed(1)} (goal < 20).`);
console.info(`Typologies: ${Object.keys(TYPOLOGY_FORMS).length}; what each variant is: bench/COMPLIANCE.md.`);
if (lowTypology.length > 0 || lowVariant.length > 0 || m.normal.alertsPer1000 >= 20) {
  console.info("A goal is not met.");
  process.exitCode = 1;
}
