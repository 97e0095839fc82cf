// One payout-worker pass as its own process (the kill tests SIGKILL it at PAYOUT_KILL_AT, a PayoutStep; the race
// test runs three at once): reads the chain variables and DATABASE_URL like the server, prints the report as JSON.
import { loadConfig } from "@/server/config";
import { createPgDatabase } from "@/server/db/client";
import { type PayoutStep, runPayoutPass } from "@/server/features/settlement/payout-worker";

const config = loadConfig({ ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent" });
const database = createPgDatabase(config.databaseUrl!, 2);
const killAt = process.env.PAYOUT_KILL_AT as PayoutStep | undefined;
const report = await runPayoutPass(database.db, config.chain!, {
  sanctionsThreshold: config.sanctionsNameThreshold,
  at: (step) => {
    if (step === killAt) process.kill(process.pid, "SIGKILL");
  },
});
console.log(JSON.stringify(report));
await database.close();
