import { describe, expect, it } from "vitest";
import { KeyedBatcher, type Settled } from "@/server/lib/keyed-batcher";

/** A batch runner whose batches finish when the test says so; it records what each batch carried. */
function controlledRunner() {
  const batches: {
    items: string[];
    finish: (answers: Settled<string>[]) => void;
    fail: (e: Error) => void;
  }[] = [];
  const run = (items: string[]) =>
    new Promise<Settled<string>[]>((finish, fail) => {
      batches.push({ items, finish, fail });
    });
  const echo = (i: number) =>
    batches[i].finish(batches[i].items.map((item) => ({ ok: true, value: `done ${item}` })));
  return { batches, run, echo };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("KeyedBatcher", () => {
  it("runs a lone item at once and alone", async () => {
    const runner = controlledRunner();
    const batcher = new KeyedBatcher(runner.run, 10);
    const answer = batcher.run("wallet-a", "t1");
    expect(runner.batches.map((b) => b.items)).toEqual([["t1"]]);
    runner.echo(0);
    await expect(answer).resolves.toBe("done t1");
    expect(batcher.stats).toEqual({ batches: 1, items: 1, largest: 1, queued: 0 });
  });

  it("gathers what arrives while a key's batch runs into its next batch, in arrival order, at most maxBatch", async () => {
    const runner = controlledRunner();
    const batcher = new KeyedBatcher(runner.run, 3);
    const answers = ["t1", "t2", "t3", "t4", "t5", "t6"].map((item) => batcher.run("wallet-a", item));
    expect(batcher.stats.queued).toBe(5);
    runner.echo(0);
    await tick();
    expect(runner.batches.map((b) => b.items)).toEqual([["t1"], ["t2", "t3", "t4"]]);
    runner.echo(1);
    await tick();
    expect(runner.batches[2].items).toEqual(["t5", "t6"]);
    runner.echo(2);
    await expect(Promise.all(answers)).resolves.toEqual(
      ["t1", "t2", "t3", "t4", "t5", "t6"].map((i) => `done ${i}`),
    );
    expect(batcher.stats).toEqual({ batches: 3, items: 6, largest: 3, queued: 0 });
    // The key is free again: the next item goes alone at once.
    void batcher.run("wallet-a", "t7");
    expect(runner.batches[3].items).toEqual(["t7"]);
  });

  it("never holds one key's item behind another key's batch", () => {
    const runner = controlledRunner();
    const batcher = new KeyedBatcher(runner.run, 10);
    void batcher.run("wallet-a", "a1");
    void batcher.run("wallet-b", "b1");
    void batcher.run("wallet-a", "a2");
    expect(runner.batches.map((b) => b.items)).toEqual([["a1"], ["b1"]]);
    expect(batcher.stats.queued).toBe(1);
  });

  it("refuses only the items the runner refused, and the whole batch when the runner throws", async () => {
    const runner = controlledRunner();
    const batcher = new KeyedBatcher(runner.run, 10);
    const first = batcher.run("wallet-a", "t1");
    const second = batcher.run("wallet-a", "t2");
    const third = batcher.run("wallet-a", "t3");
    runner.batches[0].fail(new Error("connection lost"));
    await expect(first).rejects.toThrow("connection lost");
    await tick();
    runner.batches[1].finish([
      { ok: false, error: new Error("bad item") },
      { ok: true, value: "done t3" },
    ]);
    await expect(second).rejects.toThrow("bad item");
    await expect(third).resolves.toBe("done t3");
  });

  it("refuses an item the runner left without an answer", async () => {
    const runner = controlledRunner();
    const batcher = new KeyedBatcher(runner.run, 10);
    const first = batcher.run("wallet-a", "t1");
    const [second, third] = [batcher.run("wallet-a", "t2"), batcher.run("wallet-a", "t3")];
    runner.echo(0);
    await first;
    await tick();
    runner.batches[1].finish([{ ok: true, value: "done t2" }]);
    await expect(second).resolves.toBe("done t2");
    await expect(third).rejects.toThrow("answered 1 of 2");
  });

  it("refuses a batch size that is not a positive whole number", () => {
    expect(() => new KeyedBatcher(async () => [], 0)).toThrow("maxBatch");
  });
});
