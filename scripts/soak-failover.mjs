#!/usr/bin/env node
// `npm run soak:failover [-- N]`: every failover fault once per seed, N seeds (default 20, or FAILOVER_SEEDS)
// on one Patroni cluster, then the figures (median and worst RTO, lost, written twice) in bench/FAILOVER.md.
// FAILOVER_SEED picks the first seed. The point-in-time restore runs once at the end, as in CI.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seeds = Number(process.argv[2] ?? process.env.FAILOVER_SEEDS ?? 20);
if (!Number.isInteger(seeds) || seeds < 1) {
  console.error("usage: npm run soak:failover [-- <number of seeds>]");
  process.exit(2);
}
console.info(`▶ failover soak: ${seeds} seed(s), figures to bench/FAILOVER.md`);
const result = spawnSync(process.execPath, [path.join(root, "scripts/test-failover.mjs")], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, FAILOVER: "required", FAILOVER_SEEDS: String(seeds), FAILOVER_RECORD: "1" },
});
process.exit(result.status ?? 1);
