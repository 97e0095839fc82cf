import { jaroWinkler, jaroWinklerOfCodes } from "@/server/features/compliance/jaro-winkler";

/** A listed family name's token counts as present only when a token of the other name is this alike. */
const SURNAME_FLOOR = 0.85;
/** What each token one name has beyond the other costs (a middle name or patronymic left out). */
const EXTRA_TOKEN_COST = 0.03;
/** Missing the family name, or matching a full name with one word, keeps this share of the score. */
const PARTIAL_FACTOR = 0.8;

/**
 * How alike a screened name and a listed one are, 0 to 1, from their sorted tokens (see nameTokens). Each
 * token of the shorter name is paired with the most alike unused token of the other (Jaro–Winkler); the
 * score is the pairs' mean weighted by characters, less a little per token the longer name has beyond
 * (customers leave out middle names and patronymics), and cut when the listed family name (`surname`:
 * the part before OFAC's comma in `LAST, First`) has no close token, or when one single word stands
 * against a full name. So "Ivan Petrov" is "PETROV, Ivan Sergeyevich", while "Mohammed Ali" is not
 * "HASSAN, Mohammed Ali".
 */
export function nameScore(
  query: readonly string[],
  listed: readonly string[],
  surname: readonly string[] = [],
): number {
  if (query.length === 0 || listed.length === 0) return 0;
  const pairs: { i: number; j: number; score: number }[] = [];
  for (let i = 0; i < query.length; i++) {
    for (let j = 0; j < listed.length; j++) pairs.push({ i, j, score: jaroWinkler(query[i]!, listed[j]!) });
  }
  pairs.sort((x, y) => y.score - x.score);
  const pairedQuery = new Map<number, number>();
  const pairedListed = new Map<number, number>();
  for (const { i, j, score } of pairs) {
    if (pairedQuery.has(i) || pairedListed.has(j)) continue;
    pairedQuery.set(i, score);
    pairedListed.set(j, score);
  }
  const queryIsShorter = query.length <= listed.length;
  const shorter = queryIsShorter ? query : listed;
  const paired = queryIsShorter ? pairedQuery : pairedListed;
  let weighted = 0;
  let chars = 0;
  shorter.forEach((token, k) => {
    weighted += (paired.get(k) ?? 0) * token.length;
    chars += token.length;
  });
  let score = weighted / chars - EXTRA_TOKEN_COST * Math.abs(listed.length - query.length);
  if (shorter.length === 1 && Math.max(query.length, listed.length) > 1) score *= PARTIAL_FACTOR;
  for (const family of surname) {
    const at = listed.indexOf(family);
    if (at === -1 || (pairedListed.get(at) ?? 0) < SURNAME_FLOOR) {
      score *= PARTIAL_FACTOR;
      break;
    }
  }
  return Math.max(0, score);
}

/**
 * Whether a customer's date of birth (YYYY-MM-DD) can be the listed person's: the list gives days or years;
 * no date on either side never rules a match out.
 */
export function birthDateCompatible(customer: string | null | undefined, listed: readonly string[]): boolean {
  if (!customer || listed.length === 0) return true;
  return listed.some((d) => (d.length === 4 ? customer.startsWith(d) : customer === d));
}

/*
 * The matcher of decision 052: canonical words weighed by how rare they are on the list.
 */

/** Below this, two words are not the same word (Jaro–Winkler of their canonical spellings, or the phonetic key). */
export const TOKEN_FLOOR = 0.85;
/** Each letter of length gap beyond the first takes this share (over the longer word's length) off a pair. */
export const LENGTH_GAP_COST = 0.5;
/** Two words beginning with different letters keep this share of their Jaro–Winkler. */
export const FIRST_LETTER_FACTOR = 0.9;
/** A shared phonetic key counts only between words at least this alike spelled (Hasan and Husayn share one). */
export const PHONETIC_FLOOR = 0.78;
/** Two words with the same phonetic key (of three sounds or more) are at least this alike. */
export const PHONETIC_SCORE = 0.88;
/** An initial against a word it begins. */
export const INITIAL_SCORE = 0.85;
/** An initial carries about this much identity, whatever the word it stands for (in IDF's units). */
export const INITIAL_WEIGHT = 1.5;
/** A generic word of company names (bank, trading…) keeps this share of its weight. */
export const GENERIC_FACTOR = 0.15;
/** Each screened word the listed name does not have costs this share of its weight. */
export const QUERY_COST = 0.5;
/**
 * Each listed word the screened name leaves out costs this share of its weight when the words matched carry
 * EVIDENCE_FULL or more (Moov Watchman's 0.15 for an unmatched listed token), up to all of it when they carry
 * nothing: a rare given name and surname may leave out a second surname, two everyday words may not.
 */
export const LISTED_COST = 0.15;
export const EVIDENCE_FULL = 14;
/**
 * EVIDENCE_FULL as a share of the heaviest word's weight (a word one entry holds), so that a list of any size
 * reads the same: 14 on OFAC's SDN list (14,965 entries, heaviest word ln(29,932) ≈ 10.3), less on a small one.
 */
export const EVIDENCE_FULL_SHARE = 14 / Math.log(29_932);
/**
 * A name matched with less evidence than EVIDENCE_FULL loses up to this share of its score, by how much less:
 * an exact "Ahmad Hamdan" (two everyday words) scores below an exact name of two rare ones.
 */
export const RARITY_COST = 0.2;

/** What a person's name match keeps when carried by `evidence` (RARITY_COST, EVIDENCE_FULL). */
export function rarityFactor(evidence: number, evidenceFull = EVIDENCE_FULL): number {
  return 1 - RARITY_COST * Math.max(0, 1 - evidence / evidenceFull);
}

/** A canonical word ready to be compared: its code points, phonetic key and weight. */
export interface WeighedToken {
  text: string;
  codes: Int32Array;
  phonetic: string;
  weight: number;
  initial: boolean;
}

/** How a screened name and a listed one compare: the score and the share of it phonetic keys agree on. */
export interface NameComparison {
  score: number;
  phonetic: number;
  /** The paired words' similarity times weight: how much identity the match carries. */
  evidence: number;
}

function tokenSimilarity(q: WeighedToken, l: WeighedToken): { s: number; phonetic: boolean } {
  if (q.text === l.text) return { s: 1, phonetic: true };
  if (q.initial || l.initial) {
    const [initial, full] = q.initial ? [q, l] : [l, q];
    return { s: !full.initial && full.text.startsWith(initial.text) ? INITIAL_SCORE : 0, phonetic: false };
  }
  const jw = jaroWinklerOfCodes(q.codes, l.codes);
  const a = q.codes.length;
  const b = l.codes.length;
  // Jaro–Winkler is lenient with a word inside a longer one (syria, syriatel) and with short words a letter
  // apart at the start (ali, wali): a length gap beyond one letter and a different first letter cost.
  let spelled = jw * (1 - (LENGTH_GAP_COST * Math.max(0, Math.abs(a - b) - 1)) / Math.max(a, b));
  if (q.codes[0] !== l.codes[0]) spelled *= FIRST_LETTER_FACTOR;
  const phonetic = q.phonetic.length >= 3 && q.phonetic === l.phonetic && jw >= PHONETIC_FLOOR;
  const s = phonetic ? Math.max(spelled, PHONETIC_SCORE) : spelled;
  return { s: s >= TOKEN_FLOOR ? s : 0, phonetic };
}

/**
 * What a pair of words weighs: the lighter one's weight (a generic screened word paired with a rare listed one
 * carries little), an initial's when either is one.
 */
export function pairWeight(q: WeighedToken, l: WeighedToken): number {
  const w = Math.min(q.weight, l.weight);
  return q.initial || l.initial ? Math.min(INITIAL_WEIGHT, w) : w;
}

/**
 * How alike a screened name and a listed one are, 0 to 1 (decision 052). Each word of one is paired with the
 * most alike unused word of the other (Jaro–Winkler of canonical spellings, a shared phonetic key, an initial);
 * the score is the paired words' similarity weighted by the listed word's rarity, over their weight plus what
 * the unpaired words cost: QUERY_COST of each screened word's weight, and LISTED_COST to all of each listed
 * word's, by how little the paired words carry. `wholeName`: every word counts in full on both sides (a vessel
 * or aircraft screened for a party of unknown type must match as a whole name).
 */
export function weighedNameScore(
  query: readonly WeighedToken[],
  listed: readonly WeighedToken[],
  wholeName = false,
  evidenceFull = EVIDENCE_FULL,
): NameComparison {
  if (query.length === 0 || listed.length === 0) return { score: 0, phonetic: 0, evidence: 0 };
  const pairs: { i: number; j: number; s: number; phonetic: boolean; w: number }[] = [];
  for (let i = 0; i < query.length; i++) {
    for (let j = 0; j < listed.length; j++) {
      const { s, phonetic } = tokenSimilarity(query[i]!, listed[j]!);
      if (s > 0) pairs.push({ i, j, s, phonetic, w: pairWeight(query[i]!, listed[j]!) });
    }
  }
  if (pairs.length === 0) return { score: 0, phonetic: 0, evidence: 0 };
  pairs.sort((x, y) => y.s - x.s || y.w - x.w || x.i - y.i || x.j - y.j);
  const usedQuery = new Uint8Array(query.length);
  const usedListed = new Uint8Array(listed.length);
  let evidence = 0;
  let paired = 0;
  let phoneticEvidence = 0;
  let words = 0;
  for (const { i, j, s, phonetic, w } of pairs) {
    if (usedQuery[i] || usedListed[j]) continue;
    usedQuery[i] = 1;
    usedListed[j] = 1;
    evidence += s * w;
    paired += w;
    if (phonetic) phoneticEvidence += w;
    if (!query[i]!.initial && !listed[j]!.initial) words++;
  }
  // Initials alone are no match: "Alexander Sokolov" is not Y.A.S. CO LTD.
  if (words === 0) return { score: 0, phonetic: 0, evidence: 0 };
  let unpairedQuery = 0;
  query.forEach((t, i) => {
    if (!usedQuery[i]) unpairedQuery += t.weight;
  });
  let unpairedListed = 0;
  listed.forEach((t, j) => {
    if (!usedListed[j]) unpairedListed += t.weight;
  });
  const listedCost = wholeName
    ? 1
    : LISTED_COST + (1 - LISTED_COST) * Math.max(0, 1 - evidence / evidenceFull);
  const rest = (wholeName ? 1 : QUERY_COST) * unpairedQuery + listedCost * unpairedListed;
  return { score: evidence / (paired + rest), phonetic: phoneticEvidence / (paired + rest), evidence };
}
