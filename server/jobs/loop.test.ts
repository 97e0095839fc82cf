import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { type Loop, type LoopOptions, startLoop } from "@/server/jobs/loop";
import { JobStats } from "@/server/jobs/stats";

// The one loop helper every background loop runs on (decision 051), on real timers with short delays.
const log = pino({ level: "silent" });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started: Loop[] = [];
afterEach(async () => {
  for (const loop of started.splice(0)) await loop.stop();
});

function loop(options: Omit<LoopOptions, "log" | "name"> & { name?: string }): Loop {
  const made = startLoop({ name: "test", log, ...options });
  started.push(made);
  return made;
}

/** A pass that waits until the test lets it end, counting how many started. */
function heldPass() {
  const state = { started: 0, running: false, release: () => {} };
  const pass = async () => {
    state.started += 1;
    state.running = true;
    await new Promise<void>((r) => {
      state.release = r;
    });
    state.running = false;
    return 1;
  };
  return { state, pass };
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await sleep(5);
  }
  throw new Error(`never: ${what}`);
}

describe("startLoop", () => {
  it("collapses a burst of wake-ups into one pass, and wake-ups during a pass into one more", async () => {
    let passes = 0;
    const burst = loop({
      everyMs: 60_000,
      firstAfterMs: 60_000,
      wakeDelayMs: 30,
      pass: async () => {
        passes += 1;
        return 0;
      },
    });
    for (let i = 0; i < 10; i++) burst.wake();
    await sleep(150);
    expect(passes).toBe(1);

    const { state, pass } = heldPass();
    const busy = loop({ name: "busy", everyMs: 60_000, pass });
    await until(() => state.running, "the first pass to start");
    for (let i = 0; i < 10; i++) busy.wake();
    state.release();
    await until(() => state.started === 2, "the one pass the wake-ups asked for");
    state.release();
    await sleep(100);
    expect(state.started).toBe(2);
  });

  it("backs a failing pass off, doubling, ignores wake-ups meanwhile, and recovers", async () => {
    const at: number[] = [];
    const stats = new JobStats();
    const failing = loop({
      everyMs: 60_000,
      backoffMs: 40,
      stats,
      pass: async () => {
        at.push(Date.now());
        if (at.length <= 3) throw new Error("database away");
        return 2;
      },
    });
    await until(() => at.length >= 2, "the first retry");
    // Waking a failing loop would retry at the rate of the commits: it keeps its backoff.
    failing.wake();
    failing.wake();
    await until(() => at.length === 4, "the pass after the failures");
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(38);
    expect(gaps[1]).toBeGreaterThanOrEqual(78);
    expect(gaps[2]).toBeGreaterThanOrEqual(158);
    expect(stats.loops.get("test")).toMatchObject({ runs: 4, failures: 3, done: 2 });
    // Recovered: a wake-up runs a pass again at once.
    failing.wake();
    await until(() => at.length === 5, "a wake-up after the recovery");
    expect(at[4]! - at[3]!).toBeLessThan(1_000);
  });

  it("stops only once the running pass has ended, and starts none after", async () => {
    const { state, pass } = heldPass();
    let closed = false;
    const held = loop({
      everyMs: 10,
      pass,
      onStop: () => {
        closed = true;
      },
    });
    await until(() => state.running, "the pass to start");
    let stopped = false;
    const stopping = held.stop().then(() => {
      stopped = true;
    });
    await sleep(50);
    expect({ stopped, closed }).toEqual({ stopped: false, closed: false });
    state.release();
    await stopping;
    expect({ stopped, closed }).toEqual({ stopped: true, closed: true });
    held.wake();
    await sleep(50);
    expect(state.started).toBe(1);
  });

  it("unsubscribes its wake-up source at stop", async () => {
    const listeners = new Set<() => void>();
    let passes = 0;
    const woken = loop({
      everyMs: 60_000,
      firstAfterMs: 60_000,
      pass: async () => {
        passes += 1;
        return 0;
      },
      wakeOn: (wake) => {
        listeners.add(wake);
        return () => listeners.delete(wake);
      },
    });
    for (const wake of listeners) wake();
    await until(() => passes === 1, "the pass the source woke");
    await woken.stop();
    expect(listeners.size).toBe(0);
  });

  it("drains: runs passes while they answer more, after the running one", async () => {
    const { state, pass: first } = heldPass();
    let left = 5;
    let passes = 0;
    let holdFirst = true;
    const draining = loop({
      everyMs: 60_000,
      pass: async () => {
        passes += 1;
        if (holdFirst) {
          holdFirst = false;
          return first();
        }
        left -= 1;
        return { done: 1, more: left > 0 };
      },
    });
    await until(() => state.running, "the start's pass");
    const drained = draining.drain();
    await sleep(30);
    // The drain waits for the running pass before its own.
    expect(passes).toBe(1);
    state.release();
    await drained;
    expect({ passes, left }).toEqual({ passes: 6, left: 0 });
  });
});
