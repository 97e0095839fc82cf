// `tsx scripts/monitoring-scenarios/freeze.ts`: writes tests/fixtures/monitoring-scenarios/FROZEN.json, the counts
// and hash of the bench's and the unit test's populations. Run it only when the generator is meant to change
// (never to make a rule's figures look better): scenarios.test.ts fails until FROZEN.json matches the generator.
import { writeFileSync } from "node:fs";
import { fingerprintScenarios } from "@/scripts/monitoring-scenarios/fingerprint";
import {
  BENCH_CUSTOMERS,
  BENCH_TYPOLOGY_SHARE,
  generateScenarios,
  SEED,
  TEST_CUSTOMERS,
  TEST_TYPOLOGY_SHARE,
} from "@/scripts/monitoring-scenarios/generate";

const path = new URL("../../tests/fixtures/monitoring-scenarios/FROZEN.json", import.meta.url);
const test = fingerprintScenarios(
  generateScenarios({ customers: TEST_CUSTOMERS, typologyShare: TEST_TYPOLOGY_SHARE }),
);
const bench = fingerprintScenarios(
  generateScenarios({ customers: BENCH_CUSTOMERS, typologyShare: BENCH_TYPOLOGY_SHARE }),
);
writeFileSync(path, `${JSON.stringify({ seed: SEED, test, bench }, null, 2)}\n`);
console.info(
  `FROZEN.json: test ${test.sha256} (${test.events} events), bench ${bench.sha256} (${bench.events} events)`,
);
