/**
 * A compact phonetic key for one canonical word (decision 052), in the spirit of Soundex and Metaphone but for
 * the romanisations a sanctions list holds: the first letter kept (a vowel as "a"), then the consonants by how
 * they sound (b/p, f/v, c/k/g/q, d/t, s/z, sh/ch/zh/j alike), vowels, y and w dropped, h kept only between two
 * vowels (Muhammad keeps it, Mahmud does not), a sound written twice kept once. Ours, not a package's: a dozen
 * lines that read the canonical spellings name-canon.ts makes; Double Metaphone's English rules
 * (silent letters, Germanic and Slavic exceptions) would mostly fire on the wrong names.
 */
const CLASS: Record<string, string> = {
  b: "p",
  p: "p",
  f: "f",
  v: "f",
  c: "k",
  k: "k",
  g: "k",
  q: "j",
  d: "t",
  t: "t",
  s: "s",
  z: "j",
  j: "j",
  // Affricates: pinyin's z, zh, j, q and Wade–Giles' ts, ch are one sound class (Zunyi/Tsun-i, Quanguo/Chuankuo).
  l: "l",
  m: "m",
  n: "n",
  r: "r",
  x: "s",
};
const VOWEL = /[aeiouy]/;

export function phoneticKey(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  const w = word
    .replace(/sh|ch|zh/g, "j")
    .replace(/kh/g, "h")
    .replace(/th/g, "t");
  let key = VOWEL.test(w[0]!) || w[0] === "w" ? "a" : (CLASS[w[0]!] ?? w[0]!);
  let last = key;
  for (let i = 1; i < w.length; i++) {
    const c = w[i]!;
    let sound: string;
    if (VOWEL.test(c) || c === "w") {
      last = "";
      continue;
    }
    if (c === "h") {
      if (!(VOWEL.test(w[i - 1]!) && i + 1 < w.length && VOWEL.test(w[i + 1]!))) continue;
      sound = "h";
    } else sound = CLASS[c] ?? c;
    if (sound !== last) key += sound;
    last = sound;
  }
  return key;
}
