// `npm run bench:screening`: precision and recall of the sanctions name matcher on the labelled set
// (server/features/compliance/screening-labelled-set.ts) at a range of thresholds; figures go to bench/SCREENING.md.
import { DEFAULT_SANCTIONS_NAME_THRESHOLD } from "@/contract/compliance";
import {
  LISTED_NAMES,
  measureScreening,
  screeningMistakes,
  TRUE_MATCHES,
  TRUE_NON_MATCHES,
} from "@/server/features/compliance/screening-labelled-set";

const pct = (v: number) => v.toFixed(3);
console.info(
  `Labelled set: ${LISTED_NAMES.length} listed names, ${TRUE_MATCHES.length} true matches, ${TRUE_NON_MATCHES.length} innocent names.`,
);
console.info("| threshold | precision | recall | true positives | false negatives | false positives |");
console.info("|---|---|---|---|---|---|");
for (const threshold of [0.8, 0.85, 0.88, 0.9, 0.92, 0.94, 0.96]) {
  const m = measureScreening(threshold);
  const mark = threshold === DEFAULT_SANCTIONS_NAME_THRESHOLD ? " (default)" : "";
  console.info(
    `| ${threshold}${mark} | ${pct(m.precision)} | ${pct(m.recall)} | ${m.truePositives} | ${m.falseNegatives} | ${m.falsePositives} |`,
  );
}
const mistakes = screeningMistakes(DEFAULT_SANCTIONS_NAME_THRESHOLD);
console.info(
  `\nAt ${DEFAULT_SANCTIONS_NAME_THRESHOLD}: missed ${mistakes.missed.length}, wrongly hit ${mistakes.wronglyHit.length}`,
);
for (const m of mistakes.missed) console.info(`  missed: ${m}`);
for (const m of mistakes.wronglyHit) console.info(`  wrongly hit: ${m}`);
