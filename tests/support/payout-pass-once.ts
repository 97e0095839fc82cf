// One payout-worker pass as its own process: the kill tests SIGKILL it at a PayoutStep, the race test runs three
// at once. It reads the chain variables and DATABASE_URL like the server, loads everything, prints "ready", then
// waits for one line on stdin: the step to die at ("" for none). It prints the pass's report as JSON. Loading
// first lets a test start its workers early, so their start-up overlaps other tests.
import readline from "node:readline";
import { loadConfig } from "@/server/config";
import { createPgDatabase } from "@/server/db/client";
import { type PayoutStep, runPayoutPass } from "@/server/features/settlement/payout-worker";

const config = loadConfig({ ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent" });
console.log("ready");
const lines = readline.createInterface({ input: process.stdin });
const killAt = ((await lines[Symbol.asyncIterator]().next()).value ?? "").trim() as PayoutStep | "";
lines.close();
const database = createPgDatabase(config.databaseUrl!, 2);
const report = await runPayoutPass(database.db, config.chain!, {
  sanctionsThreshold: config.sanctionsNameThreshold,
  at: (step) => {
    if (step === killAt) process.kill(process.pid, "SIGKILL");
  },
});
console.log(JSON.stringify(report));
await database.close();
process.exit(0);
