import { NameIndex } from "@/server/features/compliance/name-index";
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
 * and innocent near misses among everyday American names. Screened with the production matcher (nameTokens and
 * the list's NameIndex, decision 043), in memory: the throughput is the matcher's, without the database round
 * trip a live screen adds. The same names are also screened the way decision 025 did (nameScore against every
 * listed name sharing a token's first letter), in the same run: its throughput, and whether any name's hits
 * differ (they must not).
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
  /** Decision 025's way (every listed name sharing a first letter scored), per CPU second, same names. */
  referenceCpuNamesPerSecond: number;
  referenceNames: number;
  /** Screened names whose hits differ between the index and decision 025's way (must be 0). */
  differing: number;
  /** Seconds to build the index from the list (once per list load). */
  indexSeconds: number;
}

export function measureNameScreening(
  seed: number,
  customers: number,
  listSize: number,
  threshold: number,
  /** How many of the names (the first ones) are also screened decision 025's way: it is slow. */
  referenceNames = customers,
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
  const prepared = listed.map((name) => ({ name, tokens: nameTokens(name), surname: surnameTokens(name) }));
  const built = performance.now();
  const index = new NameIndex(prepared);
  const indexSeconds = (performance.now() - built) / 1000;
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
  const answers = people.map((person) =>
    index.matches(nameTokens(person.name), threshold).map((m) => m.name.name),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSecondsSince(cpu);
  people.forEach((person, k) => {
    const hits = answers[k]!;
    if (person.is !== null) {
      if (hits.includes(person.is)) truePositives++;
      else falseNegatives++;
    }
    falsePositives += hits.filter((h) => h !== person.is).length;
  });
  const referenceCpu = process.cpuUsage();
  const reference = people
    .slice(0, referenceNames)
    .map((person) => referenceHits(prepared, nameTokens(person.name), threshold));
  const referenceCpuSeconds = cpuSecondsSince(referenceCpu);
  const differing = reference.filter(
    (hits, k) => [...answers[k]!].sort().join("|") !== [...hits].sort().join("|"),
  ).length;
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
    referenceCpuNamesPerSecond: reference.length / referenceCpuSeconds,
    referenceNames: reference.length,
    differing,
    indexSeconds,
  };
}

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

/** Decision 025's screen: nameScore against every listed name sharing a first letter with a token. */
function referenceHits(
  listed: { name: string; tokens: string[]; surname: string[] }[],
  tokens: string[],
  threshold: number,
): string[] {
  const initials = new Set(tokens.map((t) => t[0]!));
  return listed
    .filter((l) => l.tokens.some((t) => initials.has(t[0]!)))
    .filter((l) => nameScore(tokens, l.tokens, l.surname) >= threshold)
    .map((l) => l.name);
}
