/**
 * Jaro–Winkler similarity (Winkler 1990): the Jaro score of matching characters within a window of
 * ⌊max/2⌋−1, boosted by a common prefix of at most 4 characters at 0.1 each. Ours, not a package's: the npm
 * packages we checked either are unmaintained or count a 4-character prefix as 5 (decision 025).
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  return jaroWinklerOfCodes(codePoints(a), codePoints(b));
}

/** A string's code points, the characters Jaro–Winkler compares (what the name index keeps per token). */
export function codePoints(s: string): Int32Array {
  const codes = new Int32Array(s.length);
  let n = 0;
  for (const c of s) codes[n++] = c.codePointAt(0)!;
  return n === s.length ? codes : codes.slice(0, n);
}

/** Which characters are matched, reused between calls (screening compares many short words). */
let scratch1 = new Uint8Array(64);
let scratch2 = new Uint8Array(64);

/** jaroWinkler on code points already split (the same arithmetic, without splitting a string per call). */
export function jaroWinklerOfCodes(s1: ArrayLike<number>, s2: ArrayLike<number>): number {
  if (s1.length === 0 || s2.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(s1.length, s2.length) / 2) - 1);
  if (scratch1.length < s1.length || scratch2.length < s2.length) {
    scratch1 = new Uint8Array(Math.max(s1.length, scratch1.length * 2));
    scratch2 = new Uint8Array(Math.max(s2.length, scratch2.length * 2));
  }
  const used1 = scratch1;
  const used2 = scratch2;
  used1.fill(0, 0, s1.length);
  used2.fill(0, 0, s2.length);
  let matches = 0;
  for (let i = 0; i < s1.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(s2.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (used2[j] || s1[i] !== s2[j]) continue;
      used1[i] = 1;
      used2[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let halfTranspositions = 0;
  for (let i = 0, j = 0; i < s1.length; i++) {
    if (!used1[i]) continue;
    while (!used2[j]) j++;
    if (s1[i] !== s2[j]) halfTranspositions++;
    j++;
  }
  const t = Math.floor(halfTranspositions / 2);
  const jaro = (matches / s1.length + matches / s2.length + (matches - t) / matches) / 3;
  return jaro + commonPrefix(s1, s2) * 0.1 * (1 - jaro);
}

/** The common prefix Winkler's boost counts: at most 4 characters. */
export function commonPrefix(s1: ArrayLike<number>, s2: ArrayLike<number>): number {
  let prefix = 0;
  while (prefix < 4 && prefix < s1.length && prefix < s2.length && s1[prefix] === s2[prefix]) prefix++;
  return prefix;
}

/**
 * The most Jaro–Winkler can be for two strings of lengths `a` and `b` with at most `common` characters in
 * common (as multisets) and a common prefix of `prefix`: every common character matched, none transposed.
 * Written as jaroWinklerOfCodes computes its score, so that a pair reaching the bound has exactly its value.
 */
export function jaroWinklerBound(a: number, b: number, common: number, prefix: number): number {
  const matches = Math.min(common, a, b);
  if (matches === 0) return 0;
  const jaro = (matches / a + matches / b + (matches - 0) / matches) / 3;
  return jaro + prefix * 0.1 * (1 - jaro);
}
