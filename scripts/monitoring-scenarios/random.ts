/**
 * The scenarios' one source of chance: a seeded 32-bit generator (sfc32), so the same seed gives the same
 * customers, events and amounts on every machine and Node version (no Math.random, no Date.now).
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  }

  between(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One of `weights`' keys, in proportion to its weight (keys in their written order). */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let x = this.next() * total;
    for (const [k, w] of entries) {
      x -= w;
      if (x < 0) return k;
    }
    return entries[entries.length - 1]![0];
  }

  /** Waiting time of a Poisson process with `perDay` events a day, in days. */
  gapDays(perDay: number): number {
    return -Math.log(1 - this.next()) / perDay;
  }

  /** A hex string of `length` characters (addresses, outside customers' ids). */
  hex(length: number): string {
    let s = "";
    while (s.length < length)
      s += Math.floor(this.next() * 0x1_0000_0000)
        .toString(16)
        .padStart(8, "0");
    return s.slice(0, length);
  }

  /**
   * An amount as people pay it, in cents, between two dollar figures: whole dollars about half the time, a round
   * $5 or $10 sometimes, cents otherwise.
   */
  dollars(lo: number, hi: number): number {
    const x = this.between(lo, hi);
    const style = this.next();
    if (style < 0.45) return Math.round(x) * 100;
    if (style < 0.6) return Math.max(5, Math.round(x / 5) * 5) * 100;
    return Math.round(x * 100);
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}
