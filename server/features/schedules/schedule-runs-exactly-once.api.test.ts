import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDeps } from "@/server/app-deps";
import { loadConfig } from "@/server/config";
import { createPgDatabase, type Database } from "@/server/db/client";
import { savedRecipients } from "@/server/db/schema";
import { createIncomingPayment } from "@/server/features/credits/incoming-payments";
import { createSchedule } from "@/server/features/schedules/manage-schedules";
import { addDays } from "@/server/features/schedules/schedule-dates";
import { runDueSchedules } from "@/server/features/schedules/schedule-runner";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { createStorage } from "@/server/lib/storage/create-storage";
import { createApprovedCustomer, ETH_ADDRESS, expectLedgerClean } from "@/tests/support/money";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { expectTransfersConsistent } from "@/tests/support/transfer-invariants";
import { createAdminUser } from "@/tests/support/users";

// Exactly once across instances and restarts (decision 036): a runner process SIGKILLed after it
// made a run's transfer but before it recorded the run, then three runners on their own pools racing the same
// due runs. Real PostgreSQL only: the claim's FOR UPDATE SKIP LOCKED and the separate pools are the point.
const root = path.resolve(import.meta.dirname, "../../..");
const CUSTOMERS = 4;
const SCHEDULES_PER_CUSTOMER = 3;
const RUNS_PER_SCHEDULE = 4;
const LEASE_SECONDS = 2;

const TODAY = limitDayOf(new Date());
const START = addDays(TODAY, 1);
/** The runners' clock: the fourth weekly run's day, so every schedule has four runs due at once. */
const RUN_DAY = addDays(START, 7 * (RUNS_PER_SCHEDULE - 1));

let scratch: ScratchDatabase;
let dataDir: string;
const pools: Database[] = [];

function depsOn(database: Database): AppDeps {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    DATABASE_URL: scratch.url,
  });
  return { config, database, storage: createStorage(config) };
}

/** tests/support/schedule-pass-once.ts as a process of its own, killed by itself at `killAt`. */
function runnerProcess(killAt: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/schedule-pass-once.ts"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: scratch.url, DATA_DIR: dataDir },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
    if (output.startsWith("ready\n")) child.stdin.end(`${killAt} ${RUN_DAY} ${LEASE_SECONDS}\n`);
  });
  child.stderr.on("data", (d) => (output += d));
  return new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, output })),
  );
}

beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  scratch = await createScratchDatabase(process.env.DATABASE_URL);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-schedules-"));
});

afterAll(async () => {
  for (const pool of pools) await pool.close();
  await scratch?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!process.env.DATABASE_URL)("scheduled runs under a crash and racing runners", () => {
  it("makes exactly one transfer request per run, with the ledger clean", async () => {
    const { database } = scratch;
    const deps = depsOn(database);
    const admin = await createAdminUser(database);
    for (let c = 0; c < CUSTOMERS; c++) {
      const customer = await createApprovedCustomer(database);
      await createIncomingPayment(database.db, admin.user.id, {
        userId: customer.user.id,
        amount: "1000.00",
        status: "completed",
      });
      const [recipient] = await database.db
        .insert(savedRecipients)
        .values({ userId: customer.user.id, name: `Recipient ${c}`, address: ETH_ADDRESS })
        .returning();
      for (let s = 0; s < SCHEDULES_PER_CUSTOMER; s++) {
        await createSchedule(deps, customer.user, {
          recipientId: recipient!.id,
          amount: `${5 + s}.${String(c).padStart(2, "0")}`,
          cadence: "weekly",
          startOn: START,
          requestKey: `race-${c}-${s}`,
        });
      }
    }
    const expectedRuns = CUSTOMERS * SCHEDULES_PER_CUSTOMER * RUNS_PER_SCHEDULE;

    // The first runner dies right after a run's transfer request committed, before the run is recorded.
    const killed = await runnerProcess("transfer-made");
    expect(killed.signal, killed.output).toBe("SIGKILL");
    const count = async (table: string) =>
      Number((await database.query<{ n: string }>(`select count(*)::text as n from ${table}`))[0]!.n);
    // Customers run side by side: up to one transfer each was committed, none of them recorded as a run.
    const beforeCrash = await count("transfer_requests");
    expect(beforeCrash).toBeGreaterThanOrEqual(1);
    expect(beforeCrash).toBeLessThanOrEqual(CUSTOMERS);
    expect(await count("schedule_runs")).toBe(0);

    // Its claims expire; three runners on their own pools, and one more process, race for everything due.
    await new Promise((resolve) => setTimeout(resolve, (LEASE_SECONDS + 1) * 1000));
    for (let i = 0; i < 3; i++) pools.push(createPgDatabase(scratch.url, 4));
    const clock = () => new Date(`${RUN_DAY}T17:00:00Z`);
    const [process4, ...reports] = await Promise.all([
      runnerProcess("-"),
      ...pools.map((pool) => runDueSchedules(depsOn(pool), { now: clock, leaseSeconds: LEASE_SECONDS })),
    ]);
    expect(process4.code, process4.output).toBe(0);
    const fromProcess = JSON.parse(process4.output.trim().split("\n").at(-1)!);
    const made = [...reports, fromProcess].reduce((sum, r) => sum + r.made, 0);
    expect(made).toBe(expectedRuns);

    // One run row per (schedule, date), one transfer request per run, and each run's transfer its own key's.
    expect(await count("schedule_runs")).toBe(expectedRuns);
    expect(await count("transfer_requests")).toBe(expectedRuns);
    const mismatched = await database.query(`
      select r.schedule_id, r.run_on from schedule_runs r
        left join transfer_requests t on t.id = r.transfer_id
        left join idempotency_keys k on k.user_id = t.user_id
          and k.key = 'schedule:' || r.schedule_id || ':' || r.run_on::text
          and k.response #>> '{transferRequest,id}' = t.id::text
       where r.outcome <> 'made' or t.id is null or k.key is null`);
    expect(mismatched).toEqual([]);
    const perSchedule = await database.query<{ n: string; last: string }>(
      "select count(*)::text as n, max(run_on)::text as last from schedule_runs group by schedule_id",
    );
    expect(perSchedule).toHaveLength(CUSTOMERS * SCHEDULES_PER_CUSTOMER);
    for (const row of perSchedule) expect(row).toEqual({ n: String(RUNS_PER_SCHEDULE), last: RUN_DAY });
    // The customer is told once per run, however many runners reached it.
    expect(
      await count("notifications where kind = 'transfer_status' and title = 'Scheduled transfer requested'"),
    ).toBe(expectedRuns);
    // Nothing is left claimed, and a further pass finds nothing due.
    expect(await count("transfer_schedules where lease_until is not null")).toBe(0);
    expect(await runDueSchedules(deps, { now: clock })).toEqual({ made: 0, skipped: 0, passed: 0 });

    await expectTransfersConsistent(database, scratch.url);
    await expectLedgerClean(database);
    // Two runner processes start tsx and a lease must run out: 23 s on a quiet machine, 32-34 s at a load of 11.
  }, 120_000);
});
