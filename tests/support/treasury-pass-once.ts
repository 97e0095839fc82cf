// One treasury-worker pass as its own process (decision 060): the kill tests SIGKILL it at a TreasuryStep. It reads
// the chain variables and DATABASE_URL like the server, prints "ready", waits for one line on stdin (the step to
// die at, "" for none) and prints the pass's report as JSON.
import readline from "node:readline";
import { loadConfig } from "@/server/config";
import { createPgDatabase } from "@/server/db/client";
import { runTreasuryPass, type TreasuryStep } from "@/server/features/settlement/treasury-worker";

const config = loadConfig({ ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent" });
console.log("ready");
const lines = readline.createInterface({ input: process.stdin });
const killAt = ((await lines[Symbol.asyncIterator]().next()).value ?? "").trim() as TreasuryStep | "";
lines.close();
const database = createPgDatabase(config.databaseUrl!, 2);
const report = await runTreasuryPass(database.db, config.chain!, {
  at: (step) => {
    if (step === killAt) process.kill(process.pid, "SIGKILL");
  },
});
console.log(JSON.stringify(report));
await database.close();
process.exit(0);
