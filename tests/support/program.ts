import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** The app's programs a test runs as processes, by source file, and their files in the compiled bundle. */
const BUILT = {
  "server/main.ts": "dist/server/main.js",
  "scripts/cli.ts": "dist/server/cli.js",
} as const;

/**
 * The node arguments that run one of the app's programs as its own process: from its TypeScript sources
 * through tsx, or, when PILLAR_BUILT=1 (CI after its build stage, decision 046), the compiled bundle that
 * `npm start` and the image run. The bundle starts without transforming TypeScript, about a second of CPU less
 * per start, and the process suites start dozens (every restart, every `ledger:verify`).
 */
export function programArgs(source: keyof typeof BUILT): string[] {
  if (process.env.PILLAR_BUILT !== "1") return ["--import", "tsx", source];
  const built = path.join(root, BUILT[source]);
  if (!fs.existsSync(built))
    throw new Error(`PILLAR_BUILT=1 but ${BUILT[source]} is missing: run npm run build first.`);
  return [built];
}
