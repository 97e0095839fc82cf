import {
  codePoints,
  commonPrefix,
  jaroWinklerBound,
  jaroWinklerOfCodes,
} from "@/server/features/compliance/jaro-winkler";
import { nameScore } from "@/server/features/compliance/name-match";

/** A listed name as the matcher compares it (nameTokens' sorted tokens, surnameTokens' family name). */
export interface MatchableName {
  tokens: readonly string[];
  surname: readonly string[];
}

/**
 * A list's names prepared once, at list load, so that a screen compares a name with the few listed names that
 * can reach the threshold instead of with every one (decision 043). The answer is the one of scoring every
 * listed name that shares a token's first letter with the screened name (decision 025's blocking) by nameScore:
 *
 * - A name's score is at most the best Jaro–Winkler of one of its token pairs (a weighted mean of paired
 *   scores, then only cut), so a listed name can reach a threshold above 0 only through a token that is that
 *   alike to one of the screened name's tokens.
 * - Such tokens are looked up among the list's distinct tokens, not its names. Two tokens that alike share
 *   most of their characters: Jaro–Winkler is at most what all shared characters matched and none transposed
 *   would give (jaroWinklerBound), which sets how many characters a candidate must share. A token sharing that
 *   many shares at least one of any (length − that + 1) of the screened token's characters, so only the
 *   tokens holding the screened token's rarest characters are candidates (an index from a character and its
 *   count to the tokens with at least that many), and a length and prefix bound skips most of those before
 *   Jaro–Winkler runs.
 * - The listed names holding a token found are scored with nameScore, as before.
 */
export class NameIndex<T extends MatchableName> {
  readonly names: readonly T[];
  /** Distinct tokens of every name, and where they are. */
  private readonly lookup: TokenLookup;
  /** Per distinct token, the names (indexes into `names`) that hold it. */
  private readonly namesOf: number[][] = [];
  /** Per name, the first letters of its tokens (decision 025's blocking, kept so the answers do not change). */
  private readonly initials: Set<string>[] = [];
  private readonly seenName: Uint32Array;
  private stamp = 0;

  constructor(names: readonly T[]) {
    this.names = names;
    const idOf = new Map<string, number>();
    const vocabulary: string[] = [];
    names.forEach((name, at) => {
      this.initials.push(new Set(name.tokens.map((t) => t[0]!)));
      for (const token of new Set(name.tokens)) {
        let id = idOf.get(token);
        if (id === undefined) {
          id = vocabulary.push(token) - 1;
          idOf.set(token, id);
          this.namesOf.push([]);
        }
        this.namesOf[id]!.push(at);
      }
    });
    this.lookup = new TokenLookup(vocabulary);
    this.seenName = new Uint32Array(names.length);
  }

  /** The listed names scoring at or above `threshold` against a screened name's tokens, with their scores. */
  matches(tokens: readonly string[], threshold: number): { name: T; score: number }[] {
    if (tokens.length === 0) return [];
    const initials = new Set(tokens.map((t) => t[0]!));
    const found: { at: number; score: number }[] = [];
    const consider = (at: number) => {
      const name = this.names[at]!;
      if (![...initials].some((i) => this.initials[at]!.has(i))) return;
      const score = nameScore(tokens, name.tokens, name.surname);
      if (score >= threshold) found.push({ at, score });
    };
    const answer = () =>
      found.sort((x, y) => x.at - y.at).map(({ at, score }) => ({ name: this.names[at]!, score }));
    if (threshold <= 0) {
      // Every name reaches a threshold of 0: no token bound applies.
      for (let at = 0; at < this.names.length; at++) consider(at);
      return answer();
    }
    const nameStamp = this.nextStamp();
    for (const token of new Set(tokens)) {
      for (const id of this.lookup.alike(codePoints(token), threshold)) {
        for (const at of this.namesOf[id]!) {
          if (this.seenName[at] === nameStamp) continue;
          this.seenName[at] = nameStamp;
          consider(at);
        }
      }
    }
    return answer();
  }

  private nextStamp(): number {
    this.stamp++;
    if (this.stamp === 0xffffffff) {
      this.stamp = 1;
      this.seenName.fill(0);
    }
    return this.stamp;
  }
}

/**
 * A vocabulary of distinct tokens that answers which of them are at least so alike (Jaro–Winkler) to a token
 * without comparing it with each (decision 043's postings and bounds): NameIndex's and ListNameIndex's lookup.
 */
export class TokenLookup {
  /** The distinct tokens, as code points. */
  readonly vocabulary: Int32Array[];
  /** "character:count" → the distinct tokens holding that character at least count times, ascending. */
  private readonly postings = new Map<string, Int32Array>();
  /** First character → the distinct tokens beginning with it. */
  private readonly byFirst = new Map<number, Int32Array>();
  private readonly longest: number;
  /** Per distinct token, characters in common with the token being looked up (zero between lookups). */
  private readonly shared: Uint8Array;
  /** fewestShared's answers, per length, threshold and prefix case. */
  private readonly fewest = new Map<string, number>();

  constructor(tokens: readonly string[]) {
    this.vocabulary = tokens.map(codePoints);
    const building = new Map<string, number[]>();
    this.vocabulary.forEach((token, id) => {
      for (const key of characterKeys(token)) {
        const list = building.get(key);
        if (list) list.push(id);
        else building.set(key, [id]);
      }
    });
    for (const [key, ids] of building) this.postings.set(key, Int32Array.from(ids));
    const first = new Map<number, number[]>();
    this.vocabulary.forEach((token, id) => {
      const list = first.get(token[0]!);
      if (list) list.push(id);
      else first.set(token[0]!, [id]);
    });
    for (const [c, ids] of first) this.byFirst.set(c, Int32Array.from(ids));
    this.longest = this.vocabulary.reduce((most, t) => Math.max(most, t.length), 0);
    this.shared = new Uint8Array(this.vocabulary.length);
  }

  /** The distinct tokens beginning with the code point `c`. */
  beginningWith(c: number): Int32Array {
    return this.byFirst.get(c) ?? new Int32Array(0);
  }

  /** The distinct listed tokens whose Jaro–Winkler with `query` is at or above `threshold`. */
  alike(query: Int32Array, threshold: number): number[] {
    const a = query.length;
    if (a === 0) return [];
    // The counts below are bytes: a token longer than any name's is compared with every listed token.
    if (a > 255)
      return this.vocabulary.flatMap((t, id) => (jaroWinklerOfCodes(query, t) >= threshold ? [id] : []));
    // The fewest shared characters a token could reach the threshold with: at the best prefix for tokens that
    // begin with the query's letter, without one for the others (most of them).
    const fewestSame = this.fewestShared(a, threshold, true);
    const fewestOther = this.fewestShared(a, threshold, false);
    if (fewestSame === Number.POSITIVE_INFINITY) return [];
    // Count each listed token's characters in common with the query (a character counted as often as both
    // hold it), keeping those that reach their fewest; then the exact bound, then Jaro–Winkler itself.
    const counts = this.shared;
    const reached: number[] = [];
    const keys = characterKeys(query);
    for (const key of keys) {
      const posting = this.postings.get(key);
      if (!posting) continue;
      for (let k = 0; k < posting.length; k++) {
        const id = posting[k]!;
        if (++counts[id]! === fewestOther) reached.push(id);
      }
    }
    for (const id of this.byFirst.get(query[0]!) ?? []) {
      if (counts[id]! >= fewestSame && counts[id]! < fewestOther) reached.push(id);
    }
    const alike: number[] = [];
    for (const id of reached) {
      const token = this.vocabulary[id]!;
      if (jaroWinklerBound(a, token.length, counts[id]!, commonPrefix(query, token)) < threshold) continue;
      if (jaroWinklerOfCodes(query, token) >= threshold) alike.push(id);
    }
    // Zeroing every count (a memset) costs less than walking the postings again.
    counts.fill(0);
    return alike;
  }

  /** The fewest characters in common any listed token's length allows Jaro–Winkler to reach `threshold` with. */
  private fewestShared(a: number, threshold: number, sameFirst: boolean): number {
    const key = `${a}:${threshold}:${sameFirst}`;
    const known = this.fewest.get(key);
    if (known !== undefined) return known;
    let fewest = Number.POSITIVE_INFINITY;
    for (let b = 1; b <= this.longest; b++) {
      const prefix = sameFirst ? Math.min(4, a, b) : 0;
      for (let m = 1; m <= Math.min(a, b); m++) {
        if (jaroWinklerBound(a, b, m, prefix) < threshold) continue;
        fewest = Math.min(fewest, m);
        break;
      }
    }
    this.fewest.set(key, fewest);
    return fewest;
  }
}

/** A token's characters as "character:n" for the n-th time each appears: shared keys count shared characters. */
function characterKeys(token: Int32Array): string[] {
  const counts = new Map<number, number>();
  const keys: string[] = [];
  for (const c of token) {
    const n = (counts.get(c) ?? 0) + 1;
    counts.set(c, n);
    keys.push(`${c}:${n}`);
  }
  return keys;
}
