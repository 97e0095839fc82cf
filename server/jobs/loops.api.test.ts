import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { afterAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/tests/support/test-app";

// Which loops an instance runs, from the one list (server/jobs/loops.ts), and that closing the app stops them
// (decision 051). A chain configuration that points at no node: nothing here needs one.
const CHAIN = {
  CHAIN_RPC_URL: "http://127.0.0.1:9",
  CHAIN_ID: "31337",
  USDC_CONTRACT: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  PAYOUT_KEY: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  DEPOSIT_XPUB: HDKey.fromMasterSeed(
    mnemonicToSeedSync("test test test test test test test test test test test junk"),
  ).derive("m/44'/60'/0'/0").publicExtendedKey,
};
const LOOPS = [
  "consumer:pushes",
  "mail-worker",
  "schedule-runner",
  "chat-reply-notifier",
  "housekeeping",
  "partitions",
  "admin-stats-fold",
  "rescreen",
  "statement-run",
  "tax-form-run",
  "deposit-watcher",
  "payout-worker",
  "reconciliation",
] as const;

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function appWith(...args: Parameters<typeof createTestApp>) {
  const t = await createTestApp(...args);
  apps.push(t);
  return t;
}

const running = (t: TestApp) => LOOPS.filter((name) => t.app.jobs.loop(name) !== undefined);

describe("the jobs room's loops", () => {
  it("in a test's app with a chain: the consumers and the schedule runner, none of the passes tests run by hand", async () => {
    const t = await appWith(CHAIN);
    expect(t.app.deps.config.chain).toBeDefined();
    expect(running(t)).toEqual(["consumer:pushes", "schedule-runner"]);

    // Counted in /metrics by name once a pass ran.
    await t.app.jobs.loop("schedule-runner")!.drain();
    const metrics = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(metrics.body).toMatch(/jobs_passes_total\{job="schedule-runner",outcome="ok"\} [1-9]/);
    expect(metrics.body).toMatch(/jobs_done_total\{job="schedule-runner"\} \d/);
  });

  it("in a serving process's app: also housekeeping, the stats fold, the re-screen job, the statement run, the 1099 run, the mail worker with SMTP and the chain's three", async () => {
    const t = await appWith(
      { ...CHAIN, SMTP_URL: "smtp://127.0.0.1:9" },
      { scheduleRunner: false, jobs: { serving: true } },
    );
    expect(running(t)).toEqual([
      "consumer:pushes",
      "mail-worker",
      "housekeeping",
      "partitions",
      "admin-stats-fold",
      "rescreen",
      "statement-run",
      "tax-form-run",
      "deposit-watcher",
      "payout-worker",
      "reconciliation",
    ]);
    // The month-end run (decision 062) queued last month at its first pass and reports its progress.
    await t.app.jobs.loop("statement-run")!.drain();
    const metrics = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(metrics.body).toMatch(/jobs_run_progress\{job="statement-run",of="total"\} \d/);
    expect(metrics.body).toMatch(/jobs_run_progress\{job="statement-run",of="done"\} \d/);
  });

  it("outside tests: the chat reply notifier too", async () => {
    const t = await appWith({ NODE_ENV: "development" }, { scheduleRunner: false });
    expect(running(t)).toEqual(["consumer:pushes", "chat-reply-notifier"]);
  });

  it("closing the app waits for a running pass, while the database is still open", async () => {
    const t = await createTestApp();
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let passStarted = false;
    let answer: unknown;
    t.app.jobs.addLoop({
      name: "held",
      everyMs: 60_000,
      async pass() {
        passStarted = true;
        await held;
        answer = await t.database.query("select 1 as one");
        return 1;
      },
    });
    await expect.poll(() => passStarted).toBe(true);
    let closed = false;
    const closing = t.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(answer).toEqual([{ one: 1 }]);
  });
});
