import { codePoints, jaroWinklerOfCodes } from "@/server/features/compliance/jaro-winkler";
import { canonicalWords } from "@/server/features/compliance/name-canon";
import { TokenLookup } from "@/server/features/compliance/name-index";
import {
  EVIDENCE_FULL_SHARE,
  FIRST_LETTER_FACTOR,
  GENERIC_FACTOR,
  INITIAL_WEIGHT,
  type NameComparison,
  pairWeight,
  QUERY_COST,
  TOKEN_FLOOR,
  type WeighedToken,
  weighedNameScore,
} from "@/server/features/compliance/name-match";
import { phoneticKey } from "@/server/features/compliance/phonetic";

/**
 * How much identity each canonical word carries on this list: an inverse document frequency over the list's
 * entries (an entry's names counted once), ln((entries + 1) / (entries holding it + 0.5)). Muhammad, Ali,
 * Hassan, Wang weigh about a third of a word only one entry holds; a word the list does not hold weighs the
 * most. Generic words of company names keep GENERIC_FACTOR of it; an initial weighs INITIAL_WEIGHT.
 */
export class TokenWeights {
  private readonly df = new Map<string, number>();
  private readonly entries: number;

  constructor(entriesTokens: Iterable<Iterable<string>>) {
    let n = 0;
    for (const tokens of entriesTokens) {
      n++;
      for (const t of new Set(tokens)) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    }
    this.entries = n;
  }

  weight(text: string, generic: boolean): number {
    if (text.length === 1) return INITIAL_WEIGHT;
    const idf = Math.max(0.5, Math.log((this.entries + 1) / ((this.df.get(text) ?? 0) + 0.5)));
    return generic ? idf * GENERIC_FACTOR : idf;
  }

  /** The evidence that counts in full on this list (EVIDENCE_FULL_SHARE of the heaviest word's weight). */
  get evidenceFull(): number {
    return EVIDENCE_FULL_SHARE * Math.log((this.entries + 1) / 0.5);
  }

  /** How many entries hold the word (for the figures in decision 052). */
  entriesHolding(text: string): number {
    return this.df.get(text) ?? 0;
  }
}

/** A name's words, canonical (name-canon.ts), each once: what the weights count and the matcher compares. */
export function canonicalTokensOf(words: readonly string[]): { text: string; generic: boolean }[] {
  const seen = new Set<string>();
  return canonicalWords(words).filter((w) => !seen.has(w.text) && seen.add(w.text));
}

export function weighTokens(
  tokens: readonly { text: string; generic: boolean }[],
  weights: TokenWeights,
): WeighedToken[] {
  return tokens.map(({ text, generic }) => ({
    text,
    codes: codePoints(text),
    phonetic: phoneticKey(text),
    weight: weights.weight(text, generic),
    initial: text.length === 1,
  }));
}

/** How many screened words' alike listed words a list's index keeps (then starts again): a few MB at most. */
const ALIKE_CACHE = 50_000;

/** A listed name as ListNameIndex holds it. */
export interface WeighedName {
  tokens: readonly WeighedToken[];
}

/** How a listed name may be matched: not at all (another type of party), or only as a whole name. */
export type Admission = "no" | "yes" | "whole";

/**
 * A list's names with their weighed canonical words, prepared at list load so that a screen scores only the
 * names that can reach the threshold (decision 043's index, extended in 052):
 *
 * - A name scores above 0 only through a pair of words at least TOKEN_FLOOR alike, a shared phonetic key, or an
 *   initial. The words alike to a screened word are found among the list's distinct words: Jaro–Winkler's
 *   postings and bounds (TokenLookup), a posting per phonetic key, and the words an initial begins.
 * - A name's score is at most M / (M + QUERY_COST × U): M the most each screened word could bring (the heaviest
 *   word of the name it is alike to), U the weight of the screened words alike to none of the name's. A name
 *   whose bound is below the threshold is not scored: "Muhammad Ali Hassan" scores the few names holding all
 *   three, not the thousand holding one.
 * - The others are scored by weighedNameScore. The answer is exactly a full scan's (a unit test compares them).
 */
export class ListNameIndex<T extends WeighedName> {
  readonly names: readonly T[];
  private readonly lookup: TokenLookup;
  private readonly vocabulary: string[] = [];
  private readonly weightOf: Float64Array;
  private readonly namesOf: number[][] = [];
  private readonly byPhonetic = new Map<string, number[]>();
  private readonly idOf = new Map<string, number>();
  private readonly alikeCache = new Map<string, readonly number[]>();
  private readonly seen: Uint32Array;
  private readonly most: Float64Array;
  private readonly bestOfWord: Float64Array;
  private readonly hitWeight: Float64Array;
  private readonly wordStamp: Uint32Array;
  private stamp = 0;

  constructor(
    names: readonly T[],
    /** The list's TokenWeights.evidenceFull. */
    readonly evidenceFull: number,
  ) {
    this.names = names;
    const weights: number[] = [];
    names.forEach((name, at) => {
      for (const token of name.tokens) {
        let id = this.idOf.get(token.text);
        if (id === undefined) {
          id = this.vocabulary.push(token.text) - 1;
          this.idOf.set(token.text, id);
          weights.push(token.weight);
          this.namesOf.push([]);
          if (token.phonetic.length >= 3) {
            const list = this.byPhonetic.get(token.phonetic);
            if (list) list.push(id);
            else this.byPhonetic.set(token.phonetic, [id]);
          }
        }
        weights[id] = Math.max(weights[id]!, token.weight);
        const holders = this.namesOf[id]!;
        if (holders[holders.length - 1] !== at) holders.push(at);
      }
    });
    this.weightOf = Float64Array.from(weights);
    this.lookup = new TokenLookup(this.vocabulary);
    this.seen = new Uint32Array(names.length);
    this.most = new Float64Array(names.length);
    this.bestOfWord = new Float64Array(names.length);
    this.hitWeight = new Float64Array(names.length);
    this.wordStamp = new Uint32Array(names.length);
  }

  /**
   * The listed names scoring at or above `threshold` against a screened name's weighed words, each with its
   * comparison, in list order; `admit` says which names the screened party may match, and how.
   */
  matches(
    query: readonly WeighedToken[],
    threshold: number,
    admit: (name: T) => Admission,
  ): { name: T; comparison: NameComparison }[] {
    if (query.length === 0) return [];
    if (threshold <= 0) return this.scan(query, threshold, admit);
    const nameStamp = this.nextStamp();
    const touched: number[] = [];
    let queryWeight = 0;
    for (const q of query) {
      queryWeight += q.weight;
      const wordStamp = this.nextStamp();
      const reached: number[] = [];
      for (const id of this.alikeWords(q)) {
        const w = pairWeight(q, this.probe(id));
        for (const at of this.namesOf[id]!) {
          if (this.seen[at] !== nameStamp) {
            this.seen[at] = nameStamp;
            this.most[at] = 0;
            this.hitWeight[at] = 0;
            touched.push(at);
          }
          if (this.wordStamp[at] !== wordStamp) {
            this.wordStamp[at] = wordStamp;
            this.bestOfWord[at] = w;
            reached.push(at);
          } else if (w > this.bestOfWord[at]!) this.bestOfWord[at] = w;
        }
      }
      for (const at of reached) {
        this.most[at] += this.bestOfWord[at]!;
        this.hitWeight[at] += q.weight;
      }
    }
    const found: { at: number; comparison: NameComparison }[] = [];
    for (const at of touched) {
      const most = this.most[at]!;
      const bound = most / (most + QUERY_COST * Math.max(0, queryWeight - this.hitWeight[at]!));
      if (bound < threshold) continue;
      const comparison = this.compare(query, at, admit);
      if (comparison && comparison.score >= threshold) found.push({ at, comparison });
    }
    return found
      .sort((x, y) => x.at - y.at)
      .map(({ at, comparison }) => ({ name: this.names[at]!, comparison }));
  }

  /** Every listed name scored: what the index must answer exactly (and its answer at a threshold of 0). */
  scan(
    query: readonly WeighedToken[],
    threshold: number,
    admit: (name: T) => Admission,
  ): { name: T; comparison: NameComparison }[] {
    const found: { name: T; comparison: NameComparison }[] = [];
    this.names.forEach((name, at) => {
      const comparison = this.compare(query, at, admit);
      if (comparison && comparison.score >= threshold) found.push({ name, comparison });
    });
    return found;
  }

  private compare(query: readonly WeighedToken[], at: number, admit: (name: T) => Admission) {
    const name = this.names[at]!;
    const admission = admit(name);
    if (admission === "no") return null;
    return weighedNameScore(query, name.tokens, admission === "whole", this.evidenceFull);
  }

  /**
   * The listed words a screened word can pair with: alike spelled (a different first letter must be alike enough
   * to survive FIRST_LETTER_FACTOR), the same phonetic key, an initial's. Kept per word (ALIKE_CACHE words):
   * the answer depends only on the list and the word, and customers' names share most of their words.
   */
  private alikeWords(q: WeighedToken): readonly number[] {
    const cached = this.alikeCache.get(q.text);
    if (cached) return cached;
    const ids = new Set<number>();
    const exact = this.idOf.get(q.text);
    if (exact !== undefined) ids.add(exact);
    if (q.initial) {
      for (const id of this.lookup.beginningWith(q.codes[0]!)) ids.add(id);
    } else {
      const otherFirst = TOKEN_FLOOR / FIRST_LETTER_FACTOR;
      for (const id of this.lookup.alike(q.codes, TOKEN_FLOOR)) {
        const token = this.lookup.vocabulary[id]!;
        if (token[0] === q.codes[0] || jaroWinklerOfCodes(q.codes, token) >= otherFirst) ids.add(id);
      }
      if (q.phonetic.length >= 3) for (const id of this.byPhonetic.get(q.phonetic) ?? []) ids.add(id);
      const initial = this.idOf.get(q.text[0]!);
      if (initial !== undefined) ids.add(initial);
    }
    const answer = [...ids];
    if (this.alikeCache.size >= ALIKE_CACHE) this.alikeCache.clear();
    this.alikeCache.set(q.text, answer);
    return answer;
  }

  private probe(id: number): WeighedToken {
    const text = this.vocabulary[id]!;
    return {
      text,
      codes: new Int32Array(0),
      phonetic: "",
      weight: this.weightOf[id]!,
      initial: text.length === 1,
    };
  }

  private nextStamp(): number {
    this.stamp++;
    if (this.stamp === 0xffffffff) {
      this.stamp = 1;
      this.seen.fill(0);
      this.wordStamp.fill(0);
    }
    return this.stamp;
  }
}
