import { nameScore } from "@/server/features/compliance/name-match";
import { nameTokens, surnameTokens } from "@/server/features/compliance/normalise-name";
import {
  LISTED_NAMES,
  TRUE_MATCHES,
  TRUE_NON_MATCHES,
} from "@/server/features/compliance/screening-labelled-set";

/**
 * Name screening at population scale for bench:compliance: the labelled set's listed names among invented
 * ones (a list the size of OFAC's SDN names and aliases), and customers who are the labelled set's true matches
 * and innocent near misses among everyday American names. Screened with the production matcher (nameTokens,
 * nameScore) and the production index's blocking (a candidate shares a token's first letter), in memory: the
 * throughput is the matcher's, without the database round trip a live screen adds.
 */
const FIRST = [
  "James",
  "Mary",
  "Robert",
  "Patricia",
  "John",
  "Jennifer",
  "Michael",
  "Linda",
  "David",
  "Elizabeth",
  "William",
  "Barbara",
  "Richard",
  "Susan",
  "Joseph",
  "Jessica",
  "Thomas",
  "Sarah",
  "Charles",
  "Karen",
  "Daniel",
  "Lisa",
  "Matthew",
  "Nancy",
  "Anthony",
  "Betty",
  "Mark",
  "Sandra",
  "Steven",
  "Ashley",
  "Andrew",
  "Emily",
  "Kevin",
  "Michelle",
  "Brian",
  "Amanda",
  "Maria",
  "Carlos",
  "Aisha",
  "Priya",
];
const LAST = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Gonzalez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Perez",
  "Thompson",
  "White",
  "Harris",
  "Sanchez",
  "Clark",
  "Ramirez",
  "Lewis",
  "Robinson",
  "Walker",
  "Young",
  "Allen",
  "King",
  "Wright",
  "Scott",
  "Torres",
  "Nguyen",
  "Hill",
  "Flores",
];
const CONSONANTS = "bcdfghjklmnprstvwxyz";
const VOWELS = "aeiou";

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface NameScreeningFigures {
  listedNames: number;
  customers: number;
  truePositives: number;
  falseNegatives: number;
  falsePositives: number;
  precision: number;
  recall: number;
  /** Wall clock, and per second of this process's CPU time (what a machine shared with others still measures). */
  namesPerSecond: number;
  cpuNamesPerSecond: number;
}

export function measureNameScreening(
  seed: number,
  customers: number,
  listSize: number,
  threshold: number,
): NameScreeningFigures {
  const next = rng(seed);
  const pick = <T>(list: ArrayLike<T>) => list[Math.floor(next() * list.length)]!;
  // Invented words (consonant–vowel syllables) with initials spread like a real list's.
  const word = () => {
    const w = Array.from({ length: 2 + Math.floor(next() * 2) }, () => pick(CONSONANTS) + pick(VOWELS)).join(
      "",
    );
    return w[0]!.toUpperCase() + w.slice(1) + pick(CONSONANTS);
  };
  const listed = [...LISTED_NAMES];
  while (listed.length < listSize) listed.push(`${word().toUpperCase()}, ${word()} ${word()}`);
  const index = listed.map((name) => ({ name, tokens: nameTokens(name), surname: surnameTokens(name) }));
  const byInitial = new Map<string, number[]>();
  index.forEach((l, at) => {
    for (const initial of new Set(l.tokens.map((t) => t[0]!)))
      byInitial.set(initial, [...(byInitial.get(initial) ?? []), at]);
  });
  const people: { name: string; is: string | null }[] = [
    ...TRUE_MATCHES.map(([name, is]) => ({ name, is })),
    ...TRUE_NON_MATCHES.map((name) => ({ name, is: null })),
  ];
  while (people.length < customers) {
    const middle = next() < 0.3 ? ` ${pick(FIRST)}` : "";
    people.push({ name: `${pick(FIRST)}${middle} ${pick(LAST)}`, is: null });
  }
  let truePositives = 0;
  let falseNegatives = 0;
  let falsePositives = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const person of people) {
    const tokens = nameTokens(person.name);
    const candidates = new Set<number>();
    for (const token of tokens) for (const at of byInitial.get(token[0]!) ?? []) candidates.add(at);
    const hits: string[] = [];
    for (const at of candidates) {
      const l = index[at]!;
      if (nameScore(tokens, l.tokens, l.surname) >= threshold) hits.push(l.name);
    }
    if (person.is !== null) {
      if (hits.includes(person.is)) truePositives++;
      else falseNegatives++;
    }
    falsePositives += hits.filter((h) => h !== person.is).length;
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  return {
    listedNames: listed.length,
    customers: people.length,
    truePositives,
    falseNegatives,
    falsePositives,
    precision: truePositives + falsePositives === 0 ? 1 : truePositives / (truePositives + falsePositives),
    recall: truePositives / (truePositives + falseNegatives),
    namesPerSecond: people.length / seconds,
    cpuNamesPerSecond: people.length / cpuSeconds,
  };
}
