import { latinSkeleton } from "@/server/features/compliance/confusables";

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

const PARTICLES = new Set(["al", "el", "bin", "ibn", "abu", "abd", "abdul", "van", "von", "de", "del", "da"]);

/**
 * Characters that print nothing: format characters (zero-width space and joiners, soft hyphen, word joiner,
 * byte order mark, bidi controls) and the other default-ignorables (Hangul fillers, variation selectors).
 * Dropped, not read as a break: "He\u200bath" is written to be read as "Heath".
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * A name's text as the matcher reads it: compatibility forms unfolded (fullwidth and mathematical letters are
 * plain ones), invisible characters dropped, accents gone, look-alike letters of other scripts read as the
 * Latin ones they imitate (latinSkeleton), case and a few letters folded, apostrophes gone.
 */
function foldName(raw: string): string {
  const plain = raw.normalize("NFKD").replace(INVISIBLE, "").replace(/\p{M}/gu, "");
  return latinSkeleton(plain)
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => FOLDS[c] ?? c)
    .replace(/['’`‘]/g, "");
}

const splitWords = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
const isSingleLetter = (word: string) => /^\p{L}$/u.test(word);

/**
 * Noise dropped, particles glued to the word after them ("al rashid" and "alrashid" are one name, "bin laden"
 * too), sorted so that word order does not count.
 */
function tokensOf(words: readonly string[]): string[] {
  const kept = words.filter((w) => !NOISE.has(w));
  const joined: string[] = [];
  for (let i = 0; i < kept.length; i++) {
    const word = kept[i]!;
    if (PARTICLES.has(word) && i + 1 < kept.length) {
      joined.push(word + kept[i + 1]!);
      i++;
    } else joined.push(word);
  }
  return joined.sort();
}

/**
 * A name as the matcher compares it: folded (foldName), punctuation gone, particles joined, tokens sorted.
 * OFAC's `LAST, First Middle` and a customer's `First Middle Last` normalise to the same tokens. Listed names
 * and screened names both go through this, so the index and a query read a name alike.
 */
export function nameTokens(raw: string): string[] {
  return tokensOf(splitWords(foldName(raw)));
}

/**
 * The readings a screened name is matched under: nameTokens', and, when the name spells words out in single
 * letters, the one with those letters rejoined. A word written "N.o.e.l" (one chunk of lone letters) is
 * "noel", and a run of lone letters between spaces ("N. o. e. l. Heath") is one word. Two lone letters are
 * initials and stay apart (SPELLED_OUT); the rejoined reading is matched beside the plain one, never instead
 * of it, so a name matches as it always did, and a spelled-out name also matches as the name.
 */
export function nameTokenReadings(raw: string): string[][] {
  const folded = foldName(raw);
  const plain = tokensOf(splitWords(folded));
  const rejoined = tokensOf(rejoinLoneLetters(folded));
  return rejoined.join(" ") === plain.join(" ") ? [plain] : [plain, rejoined];
}

/**
 * Lone letters spell a word from three on: "N.o.e.l", "A. l. i". Two are initials ("J. R.", "A.Q."): joined,
 * they would be a short token that many listed given names come close to.
 */
const SPELLED_OUT = 3;

/** The words of a folded name, a chunk of lone letters (N.o.e.l) and then a run of lone-letter words joined. */
function rejoinLoneLetters(folded: string): string[] {
  const words = folded.split(/\s+/u).flatMap((chunk) => {
    const parts = splitWords(chunk);
    return parts.length >= SPELLED_OUT && parts.every(isSingleLetter) ? [parts.join("")] : parts;
  });
  const joined: string[] = [];
  let run: string[] = [];
  const endRun = () => {
    joined.push(...(run.length >= SPELLED_OUT ? [run.join("")] : run));
    run = [];
  };
  for (const word of words) {
    if (isSingleLetter(word)) run.push(word);
    else {
      endRun();
      joined.push(word);
    }
  }
  endRun();
  return joined;
}

/**
 * The words a screened name is weighed under (decision 052), folded and in written order: the plain reading and,
 * when the name spells words out in single letters, the one with those letters rejoined (as nameTokenReadings).
 */
export function nameWordReadings(raw: string): string[][] {
  const folded = foldName(raw);
  const plain = splitWords(folded);
  const rejoined = rejoinLoneLetters(folded);
  return rejoined.join(" ") === plain.join(" ") ? [plain] : [plain, rejoined];
}

/** A listed name's words, folded, in written order (OFAC's `LAST, First` read as written: order does not count). */
export function nameWords(raw: string): string[] {
  return splitWords(foldName(raw));
}

export function normaliseName(raw: string): string {
  return nameTokens(raw).join(" ");
}

/** The family name's tokens of a listed `LAST, First Middle` (none when the name has no comma). */
export function surnameTokens(raw: string): string[] {
  const comma = raw.indexOf(",");
  return comma === -1 ? [] : nameTokens(raw.slice(0, comma));
}
