/** What one item of a batch came to: its value, or the error that refuses it alone. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

interface Waiter<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export interface BatchStats {
  /** Batches run so far, and the items they carried. */
  batches: number;
  items: number;
  largest: number;
  /** Items waiting for their key's running batch to finish. */
  queued: number;
}

/**
 * One batch per key at a time. An item whose key has nothing running starts a batch at once, alone, so a
 * lone caller waits for nothing; items that arrive while it runs wait and go together in the next batch, in
 * arrival order, at most `maxBatch` at a time. For work that serialises on the key anyway (one wallet's row
 * lock): n waiting callers then cost one round trip and one commit instead of n, and hold one connection.
 */
export class KeyedBatcher<I, O> {
  private readonly waiting = new Map<string, Waiter<I, O>[]>();
  private counts = { batches: 0, items: 0, largest: 0 };

  constructor(
    private readonly runBatch: (items: I[]) => Promise<Settled<O>[]>,
    private readonly maxBatch: number,
  ) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1)
      throw new Error(`maxBatch must be a positive integer: ${maxBatch}`);
  }

  run(key: string, item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const waiter = { item, resolve, reject };
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push(waiter);
        return;
      }
      this.waiting.set(key, []);
      void this.drain(key, [waiter]);
    });
  }

  get stats(): BatchStats {
    let queued = 0;
    for (const queue of this.waiting.values()) queued += queue.length;
    return { ...this.counts, queued };
  }

  private async drain(key: string, first: Waiter<I, O>[]): Promise<void> {
    let batch = first;
    while (batch.length > 0) {
      this.counts.batches++;
      this.counts.items += batch.length;
      this.counts.largest = Math.max(this.counts.largest, batch.length);
      try {
        const settled = await this.runBatch(batch.map((w) => w.item));
        batch.forEach((w, i) => {
          const outcome = settled[i];
          if (outcome === undefined)
            w.reject(new Error(`The batch answered ${settled.length} of ${batch.length} items`));
          else if (outcome.ok) w.resolve(outcome.value);
          else w.reject(outcome.error);
        });
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
      // Nothing awaits between taking the next batch and deleting an empty queue: no arrival slips between.
      batch = (this.waiting.get(key) ?? []).splice(0, this.maxBatch);
    }
    this.waiting.delete(key);
  }
}
