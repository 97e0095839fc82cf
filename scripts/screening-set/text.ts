/**
 * The judge's own text helpers, written apart from the matcher (decision 052): folding used to keep negative
 * cases clear of the list, the Title Case a customer types, and the plain Jaro–Winkler of the baseline.
 */

/** Lowercase, accents stripped (NFD), ASCII letters, digits and spaces only. */
export function plain(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "ss")
    .replace(/[øØ]/g, "o")
    .replace(/[łŁ]/g, "l")
    .replace(/[đĐ]/g, "d")
    .replace(/[ıİ]/g, "i")
    .toLowerCase()
    .replace(/['’`ʿʾ]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const PARTICLES = new Set([
  "al",
  "el",
  "ul",
  "bin",
  "ibn",
  "bint",
  "de",
  "del",
  "la",
  "da",
  "dos",
  "das",
  "van",
  "von",
  "y",
]);

/**
 * A deliberately coarse key per token (transliteration folded, vowels after the first letter dropped): two names
 * whose keys overlap may be the same name spelled another way. Used only to keep negatives away from the list,
 * where merging too much is the safe side.
 */
export function tokenKey(token: string): string {
  let t = token
    .replace(/^(al|el|ul)(?=[a-z]{3,})/, "")
    .replace(/kh/g, "h")
    .replace(/gh/g, "g")
    .replace(/ph/g, "f")
    .replace(/q/g, "k")
    .replace(/c(?=[eiy])/g, "s")
    .replace(/c/g, "k")
    .replace(/w/g, "v")
    .replace(/j/g, "y")
    .replace(/x/g, "ks")
    .replace(/z/g, "s")
    .replace(/(ff|v)$/g, "v")
    .replace(/h$/, "");
  t = t[0]! + t.slice(1).replace(/[aeiouy]/g, "");
  return t.replace(/(.)\1+/g, "$1");
}

/** The keys of a name's tokens, particles and single letters left out. */
export function nameKeys(name: string): string[] {
  return plain(name)
    .split(" ")
    .filter((t) => t.length > 1 && !PARTICLES.has(t))
    .map(tokenKey);
}

/** `AL-TIKRITI` → `Al-Tikriti`, `abd-al-latif` → `Abd-Al-Latif`: how a customer types a name. */
export function titleCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|[\s\-(."])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase())
    .replace(/\b(Llc|Jsc|Pjsc|Ooo|Oao|Pao|Zao|Fze|Llp|Gmbh)(?=[\s,.]|$)/g, (w) =>
      w === "Gmbh" ? "GmbH" : w.toUpperCase(),
    );
}

// Reused between calls: the baseline compares every listed name with every query.
let aMatchedBuffer = new Uint8Array(64);
let bMatchedBuffer = new Uint8Array(64);

/** Plain Jaro–Winkler (Winkler's prefix of at most 4, scaling 0.1), for the baseline. */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return a.length ? 1 : 0;
  if (!a.length || !b.length) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  if (aMatchedBuffer.length < a.length) aMatchedBuffer = new Uint8Array(a.length * 2);
  if (bMatchedBuffer.length < b.length) bMatchedBuffer = new Uint8Array(b.length * 2);
  const aMatched = aMatchedBuffer;
  const bMatched = bMatchedBuffer;
  aMatched.fill(0, 0, a.length);
  bMatched.fill(0, 0, b.length);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (bMatched[j] || a.charCodeAt(i) !== b.charCodeAt(j)) continue;
      aMatched[i] = 1;
      bMatched[j] = 1;
      matches++;
      break;
    }
  }
  if (!matches) return 0;
  let transpositions = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[j]) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) transpositions++;
    j++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}
