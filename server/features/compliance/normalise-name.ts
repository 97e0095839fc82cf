/** Letters that Unicode does not decompose into a base letter plus a mark. */
const FOLDS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};

/** Words that carry no identity in a name: titles and the list's own joiners. */
const NOISE = new Set(["mr", "mrs", "ms", "dr", "sheikh", "shaikh", "haji", "hajji"]);

/**
 * A name as the matcher compares it: accents and case folded, punctuation gone, particles joined
 * (`al-Rashid`, `Al Rashid` and `Alrashid` read alike), tokens sorted so word order does not count.
 * OFAC's `LAST, First Middle` and a customer's `First Middle Last` normalise to the same tokens.
 */
export function nameTokens(raw: string): string[] {
  const folded = raw
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => FOLDS[c] ?? c);
  const words = folded
    .replace(/['’`‘]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !NOISE.has(w));
  // Particles glue to the word after them: "al rashid" and "alrashid" are one name, "bin laden" too.
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (PARTICLES.has(word) && i + 1 < words.length) {
      joined.push(word + words[i + 1]!);
      i++;
    } else joined.push(word);
  }
  return joined.sort();
}

const PARTICLES = new Set(["al", "el", "bin", "ibn", "abu", "abd", "abdul", "van", "von", "de", "del", "da"]);

export function normaliseName(raw: string): string {
  return nameTokens(raw).join(" ");
}

/** The family name's tokens of a listed `LAST, First Middle` (none when the name has no comma). */
export function surnameTokens(raw: string): string[] {
  const comma = raw.indexOf(",");
  return comma === -1 ? [] : nameTokens(raw.slice(0, comma));
}
