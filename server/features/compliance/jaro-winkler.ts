/**
 * Jaro–Winkler similarity (Winkler 1990): the Jaro score of matching characters within a window of
 * ⌊max/2⌋−1, boosted by a common prefix of at most 4 characters at 0.1 each. Ours, not a package's: the npm
 * packages we checked either are unmaintained or count a 4-character prefix as 5 (decision 025).
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const s1 = [...a];
  const s2 = [...b];
  if (s1.length === 0 || s2.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(s1.length, s2.length) / 2) - 1);
  const used1 = new Uint8Array(s1.length);
  const used2 = new Uint8Array(s2.length);
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
  let prefix = 0;
  while (prefix < 4 && prefix < s1.length && prefix < s2.length && s1[prefix] === s2[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}
