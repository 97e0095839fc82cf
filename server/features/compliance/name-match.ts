import { jaroWinkler } from "@/server/features/compliance/jaro-winkler";

/**
 * How alike two names are, 0 to 1, from their sorted tokens (see nameTokens): each token of one name is
 * paired with the most alike unused token of the other (Jaro–Winkler), and the pairs' scores are averaged
 * weighted by the characters they cover. A token left unpaired counts 0, so "Ali Ahmed" is not "Ali Ahmed
 * Hassan" and a common first name alone never matches a listed full name.
 */
export function nameScore(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const pairs: { i: number; j: number; score: number }[] = [];
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) pairs.push({ i, j, score: jaroWinkler(a[i]!, b[j]!) });
  }
  pairs.sort((x, y) => y.score - x.score);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  let weighted = 0;
  for (const { i, j, score } of pairs) {
    if (usedA.has(i) || usedB.has(j)) continue;
    usedA.add(i);
    usedB.add(j);
    weighted += score * (a[i]!.length + b[j]!.length);
  }
  const total = a.reduce((n, t) => n + t.length, 0) + b.reduce((n, t) => n + t.length, 0);
  return weighted / total;
}

/**
 * Whether a customer's date of birth (YYYY-MM-DD) can be the listed person's: the list gives days or years;
 * no date on either side never rules a match out.
 */
export function birthDateCompatible(customer: string | null | undefined, listed: readonly string[]): boolean {
  if (!customer || listed.length === 0) return true;
  return listed.some((d) => (d.length === 4 ? customer.startsWith(d) : customer === d));
}
