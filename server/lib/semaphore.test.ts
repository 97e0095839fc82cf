import { describe, expect, it } from "vitest";
import { Semaphore } from "@/server/lib/semaphore";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("Semaphore", () => {
  it("runs at most `limit` tasks at once, the rest in arrival order, and frees every slot", async () => {
    const slots = new Semaphore(2);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    let peak = 0;
    const results = Array.from({ length: 5 }, (_, i) =>
      slots.run(async () => {
        started.push(i);
        peak = Math.max(peak, slots.active);
        await new Promise<void>((resolve) => finish.push(resolve));
        return i * 10;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    finish.shift()?.();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    while (finish.length > 0 || started.length < 5) {
      finish.shift()?.();
      await tick();
    }
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30, 40]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(slots.active).toBe(0);
  });

  it("frees the slot of a task that throws", async () => {
    const slots = new Semaphore(1);
    await expect(slots.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(slots.active).toBe(0);
    await expect(slots.run(async () => "next")).resolves.toBe("next");
  });

  it("refuses a limit below one", () => {
    expect(() => new Semaphore(0)).toThrow(/positive integer/);
  });
});
