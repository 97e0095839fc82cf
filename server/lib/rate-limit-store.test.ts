import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryCounter } from "@/server/lib/rate-limit-store";

const count = (counter: MemoryCounter, key: string, timeWindow = 60_000, max = 3) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    counter.incr(key, (err, result) => (err || !result ? reject(err) : resolve(result)), timeWindow, max),
  );

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-01-02T03:04:05Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the per-instance rate-limit counter (used while Redis is unreachable)", () => {
  it("counts a key within its window and reports the time left", async () => {
    const counter = new MemoryCounter({});
    expect(await count(counter, "a")).toEqual({ current: 1, ttl: 60_000 });
    vi.advanceTimersByTime(20_000);
    expect(await count(counter, "a")).toEqual({ current: 2, ttl: 40_000 });
    expect(await count(counter, "b")).toEqual({ current: 1, ttl: 60_000 });
  });

  it("starts a new window once the last one ended", async () => {
    const counter = new MemoryCounter({});
    for (let i = 0; i < 5; i++) await count(counter, "a");
    vi.advanceTimersByTime(60_000);
    expect(await count(counter, "a")).toEqual({ current: 1, ttl: 60_000 });
  });

  it("pushes the window out on every hit past the limit with continueExceeding", async () => {
    const counter = new MemoryCounter({}).child({ continueExceeding: true });
    for (let i = 0; i < 3; i++) await count(counter, "a");
    vi.advanceTimersByTime(50_000);
    expect(await count(counter, "a")).toEqual({ current: 4, ttl: 60_000 });
    vi.advanceTimersByTime(50_000);
    expect(await count(counter, "a")).toEqual({ current: 5, ttl: 60_000 });
  });

  it("forgets the least recently counted key past its cache size, and only that one", async () => {
    const counter = new MemoryCounter({ cache: 2 });
    await count(counter, "a");
    await count(counter, "b");
    await count(counter, "a");
    await count(counter, "c");
    expect((await count(counter, "a")).current).toBe(3);
    expect((await count(counter, "b")).current).toBe(1);
  });
});
