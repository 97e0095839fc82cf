import { createHash } from "node:crypto";
import { NAMES, ORIGINS, type Origin } from "./names";
import { Prng, randomDay } from "./prng";

/**
 * The synthetic customer population for the fairness figures (decision 053): customers spread evenly over
 * nine name origins, each with a random adult date of birth, type person. Generated at bench and test time
 * from the frozen seed and the frozen name lists (names.ts); cases.json records its SHA-256 so a change to
 * either shows.
 */
export const POPULATION_SEED = 4_710_000;
export const PER_ORIGIN = 1_120;
export const POPULATION_SIZE = PER_ORIGIN * ORIGINS.length;

export interface Customer {
  id: number;
  origin: Origin;
  name: string;
  dob: string;
  type: "person";
}

/** Russian surnames take the feminine form for women: Ivanov → Ivanova, Ilyin → Ilyina. */
const feminine = (surname: string) => (/(ov|ev|in)$/.test(surname) ? `${surname}a` : surname);

function customerName(origin: Origin, rng: Prng): string {
  const n = NAMES[origin];
  const gi = rng.int(0, n.given.length - 1);
  const given = n.given[gi]!;
  // The lists hold men's names in their first half, women's in the second.
  const female = gi >= n.given.length / 2;
  const surname = rng.pick(n.surnames);
  switch (origin) {
    case "hispanic": {
      const parts = [given];
      if (rng.chance(0.3)) parts.push(rng.pick(n.middle));
      parts.push(surname);
      if (rng.chance(0.5)) parts.push(rng.pick(n.surnames));
      return parts.join(" ");
    }
    case "russian": {
      const parts = [given];
      if (rng.chance(0.25)) {
        const fitting = n.middle.filter((m) => (female ? /na$/.test(m) : /ch$/.test(m)));
        parts.push(rng.pick(fitting));
      }
      parts.push(female ? feminine(surname) : surname);
      return parts.join(" ");
    }
    case "chinese":
      return rng.chance(0.5) ? `${surname} ${given}` : `${given} ${surname}`;
    case "vietnamese": {
      const middle = rng.chance(0.8) ? [female ? "Thi" : rng.pick(n.middle.filter((m) => m !== "Thi"))] : [];
      return rng.chance(0.5) ? [surname, ...middle, given].join(" ") : [given, ...middle, surname].join(" ");
    }
    default: {
      const middleChance = {
        english: 0.3,
        arabic: 0.4,
        persian: 0.2,
        "south-asian": 0.25,
        "west-african": 0.2,
      }[origin];
      const parts = [given];
      if (n.middle.length && rng.chance(middleChance)) {
        const middle = rng.pick(n.middle);
        if (middle !== given) parts.push(middle);
      }
      parts.push(surname);
      return parts.join(" ");
    }
  }
}

/** `perOrigin` customers of each origin, in a seeded order. */
export function generatePopulation(seed = POPULATION_SEED, perOrigin = PER_ORIGIN): Customer[] {
  const rng = new Prng(seed);
  const customers: Customer[] = [];
  for (const origin of ORIGINS) {
    for (let i = 0; i < perOrigin; i++) {
      customers.push({
        id: 0,
        origin,
        name: customerName(origin, rng),
        dob: randomDay(rng, 1940, 2005),
        type: "person",
      });
    }
  }
  return rng.shuffle(customers).map((c, i) => ({ ...c, id: i + 1 }));
}

/** The frozen population's SHA-256 (of its JSON), recorded in cases.json. */
export function populationDigest(customers = generatePopulation()): string {
  return createHash("sha256").update(JSON.stringify(customers)).digest("hex");
}
