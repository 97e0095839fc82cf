// One schedule-runner pass as its own process (decision 036): the kill test SIGKILLs it at a RunStep. It reads
// DATABASE_URL like the server, loads everything, prints "ready", then waits for one line on stdin:
// "<step to die at, or -> <New York day the clock reads> <lease seconds>". It prints the pass's report as JSON.
import readline from "node:readline";
import { loadConfig } from "@/server/config";
import { createPgDatabase } from "@/server/db/client";
import type { RunStep } from "@/server/features/schedules/run-schedule";
import { runDueSchedules } from "@/server/features/schedules/schedule-runner";
import { createStorage } from "@/server/lib/storage/create-storage";

const config = loadConfig({ ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent" });
console.log("ready");
const lines = readline.createInterface({ input: process.stdin });
const line = ((await lines[Symbol.asyncIterator]().next()).value ?? "").trim();
lines.close();
const [killAt, day, lease] = line.split(" ") as [RunStep | "-", string, string];
const database = createPgDatabase(config.databaseUrl!, 4);
const report = await runDueSchedules(
  { config, database, storage: createStorage(config) },
  {
    now: () => new Date(`${day}T17:00:00Z`),
    leaseSeconds: Number(lease),
    at: (step) => {
      if (step === killAt) process.kill(process.pid, "SIGKILL");
    },
  },
);
console.log(JSON.stringify(report));
await database.close();
process.exit(0);
