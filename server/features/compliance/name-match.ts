import { jaroWinkler } from "@/server/features/compliance/jaro-winkler";

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
