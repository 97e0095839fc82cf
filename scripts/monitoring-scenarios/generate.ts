import {
  familyGroup,
  liveNormal,
  rentGroup,
  type SharedAddresses,
} from "@/scripts/monitoring-scenarios/normal-lives";
import { Random } from "@/scripts/monitoring-scenarios/random";
import { actDays, collect, performAct, TYPOLOGY_FORMS } from "@/scripts/monitoring-scenarios/typologies";
import {
  type CustomerDraft,
  DAY,
  HISTORY_FROM,
  MEASURED_FROM,
  MEASURED_TO,
  type NormalKind,
  type ScenarioCustomer,
  type ScenarioLabel,
  TYPOLOGIES,
  type Typology,
  World,
} from "@/scripts/monitoring-scenarios/world";

/**
 * Decision 054's judge of transaction monitoring: a seeded, deterministic population of customers over a year
 * of history and one month measured, normal customers of twelve kinds and customers showing one typology each
 * (plain and in evasion variants), written apart from the rules and frozen
 * (tests/fixtures/monitoring-scenarios/FROZEN.md). The bench (`npm run bench:compliance`) and
 * server/features/monitoring/scenarios.test.ts run the rules over it.
 */

/** The frozen seed: a change here, or to the generator, changes the hash FROZEN.json holds. */
export const SEED = 47_291_126;
/** The bench's size; the unit test runs a smaller population of the same generator. */
export const BENCH_CUSTOMERS = 10_000;
export const BENCH_TYPOLOGY_SHARE = 0.12;
/** The unit test's population: smaller, with a larger share of typologies so each variant has a dozen customers. */
export const TEST_CUSTOMERS = 1_500;
export const TEST_TYPOLOGY_SHARE = 0.3;

export interface Scenarios {
  seed: number;
  historyFrom: number;
  measuredFrom: number;
  measuredTo: number;
  customers: ScenarioCustomer[];
}

/** Shares of the normal customers by kind. */
export const NORMAL_SHARES: Record<NormalKind, number> = {
  salaried: 22,
  gig_worker: 10,
  student: 12,
  rent_splitter: 8,
  saver: 7,
  crypto_user: 8,
  small_business: 4,
  quiet: 10,
  new_phone: 5,
  large_one_off: 3,
  family: 7,
  scheduled: 4,
};

/** The everyday life a typology's customer leads besides the act (one who sends little, for a first large one). */
const TYPOLOGY_BASES: Record<Typology, NormalKind[]> = {
  structuring_in: ["salaried", "gig_worker", "quiet"],
  structuring_out: ["salaried", "gig_worker", "crypto_user"],
  velocity: ["gig_worker", "student", "quiet"],
  first_large_new_address: ["student", "quiet"],
  rapid_in_out: ["salaried", "gig_worker", "student"],
  pass_through: ["student", "gig_worker", "quiet"],
  new_device_new_address: ["salaried", "gig_worker", "student", "saver"],
  dormant_reactivated: ["salaried", "gig_worker", "quiet"],
  collection: ["student", "gig_worker", "quiet"],
  fan_out: ["salaried", "gig_worker", "student"],
  incoming_burst: ["salaried", "gig_worker", "student"],
};

/** Typologies whose customers are often new accounts opened for the purpose (mules): a third of them. */
const MULE_TYPOLOGIES = new Set<Typology>([
  "structuring_in",
  "structuring_out",
  "rapid_in_out",
  "pass_through",
  "collection",
  "fan_out",
  "incoming_burst",
]);

type Unit =
  | { kind: "normal"; normal: NormalKind; size: number }
  | { kind: "typology"; typology: Typology; variant: string; carrier: string; size: number };

export function generateScenarios(
  options: { seed?: number; customers?: number; typologyShare?: number } = {},
): Scenarios {
  const seed = options.seed ?? SEED;
  const total = options.customers ?? BENCH_CUSTOMERS;
  const rng = new Random(seed);
  const w = new World(rng);
  const typologyCount = Math.round(total * (options.typologyShare ?? BENCH_TYPOLOGY_SHARE));
  const units = [...typologyUnits(rng, typologyCount), ...normalUnits(rng, total - typologyCount)];
  rng.shuffle(units);

  const shared: SharedAddresses = { merchants: Array.from({ length: 6 }, () => w.address()) };
  const members = units.map((u) => Array.from({ length: u.size }, () => w.add(labelOf(u), openedAt(w, u))));
  linkFriends(w, units, members);
  units.forEach((u, i) => {
    for (const c of members[i]!) liveNormal(w, c, u.kind === "normal" ? u.normal : baseOf(w, c), shared);
  });
  units.forEach((u, i) => {
    const group = members[i]!;
    if (u.kind === "normal") {
      if (u.normal === "rent_splitter") rentGroup(w, group);
      if (u.normal === "family") familyGroup(w, group);
      return;
    }
    const at = MEASURED_FROM + rng.between(0.5, 29.5 - actDays(u.typology, u.variant)) * DAY;
    if (u.typology === "collection") {
      const address = w.address();
      for (const c of group) if (c.label.type === "typology") c.label.group = address;
      collect(w, group, u.variant, at, address);
    } else performAct(w, group[0]!, { typology: u.typology, variant: u.variant, carrier: u.carrier, at });
  });
  return {
    seed,
    historyFrom: HISTORY_FROM,
    measuredFrom: MEASURED_FROM,
    measuredTo: MEASURED_TO,
    customers: w.finish(),
  };
}

function labelOf(u: Unit): ScenarioLabel {
  return u.kind === "normal"
    ? { type: "normal", kind: u.normal }
    : { type: "typology", typology: u.typology, variant: u.variant, carrier: u.carrier };
}

/** Each typology gets an equal share; its variants and carriers take turns, so every pair is represented. */
function typologyUnits(rng: Random, count: number): Unit[] {
  const units: Unit[] = [];
  TYPOLOGIES.forEach((typology, t) => {
    const { variants, carriers } = TYPOLOGY_FORMS[typology];
    let n = Math.floor(count / TYPOLOGIES.length) + (t < count % TYPOLOGIES.length ? 1 : 0);
    for (let i = 0; n > 0; i++) {
      const variant = variants[i % variants.length]!;
      const carrier = carriers[Math.floor(i / variants.length) % carriers.length]!;
      const size =
        typology !== "collection"
          ? 1
          : variant === "evasion-count"
            ? 4
            : variant === "evasion-spread"
              ? rng.int(5, 6)
              : rng.int(6, 9);
      // The last group takes what is left, at least four (a group of fewer is not a collection).
      const s = Math.min(size, Math.max(n, 4));
      units.push({ kind: "typology", typology, variant, carrier, size: s });
      n -= s;
    }
  });
  return units;
}

function normalUnits(rng: Random, count: number): Unit[] {
  const weight = Object.values(NORMAL_SHARES).reduce((s, v) => s + v, 0);
  const units: Unit[] = [];
  let made = 0;
  for (const [kind, share] of Object.entries(NORMAL_SHARES) as [NormalKind, number][]) {
    let n = kind === "scheduled" ? count - made : Math.round((count * share) / weight);
    made += n;
    while (n > 0) {
      const size = kind === "rent_splitter" ? rng.int(2, 4) : kind === "family" ? rng.int(3, 5) : 1;
      const s = Math.min(size, n);
      units.push({ kind: "normal", normal: kind, size: s });
      n -= s;
    }
  }
  return units;
}

function openedAt(w: World, u: Unit): number {
  const r = w.rng;
  if (u.kind === "typology") {
    if (u.typology === "dormant_reactivated") return HISTORY_FROM - r.between(60, 1_500) * DAY;
    if (MULE_TYPOLOGIES.has(u.typology) && r.chance(1 / 3)) return MEASURED_FROM - r.between(20, 90) * DAY;
    return HISTORY_FROM + r.between(-1_500, 240) * DAY;
  }
  const established = ["new_phone", "large_one_off", "quiet", "saver"].includes(u.normal);
  const x = r.next();
  if (established || x < 0.8) return HISTORY_FROM - r.between(30, 1_500) * DAY;
  if (x < 0.97) return HISTORY_FROM + r.between(0, 330) * DAY;
  return MEASURED_FROM + r.between(-25, 20) * DAY;
}

/** A typology customer's everyday life (stored on the draft so the act can read it back). */
function baseOf(w: World, c: CustomerDraft): NormalKind {
  if (c.label.type !== "typology") throw new Error("not a typology customer");
  // A mule's new account has a thin life of its own.
  if (c.openedAt > HISTORY_FROM + 250 * DAY) return w.rng.pick(["quiet", "student"] as NormalKind[]);
  return w.rng.pick(TYPOLOGY_BASES[c.label.typology]);
}

/**
 * Who pays whom by $tag: students among students, everyone else among a few customers of the sample, and all of
 * them some people outside it. Typology customers pay people outside the sample (a normal customer is never one
 * of their friends, so a normal's label is never changed by a typology act).
 */
function linkFriends(w: World, units: Unit[], members: CustomerDraft[][]) {
  const r = w.rng;
  const normals = units.flatMap((u, i) => (u.kind === "normal" ? members[i]! : []));
  const students = normals.filter((c) => c.label.type === "normal" && c.label.kind === "student");
  const sociable = normals.filter(
    (c) => c.label.type === "normal" && !["quiet", "saver", "small_business"].includes(c.label.kind),
  );
  for (const c of w.customers) {
    const kind = c.label.type === "normal" ? c.label.kind : null;
    const inside =
      kind === "student"
        ? pickSome(r, students, r.int(3, 10), c)
        : kind === "small_business"
          ? pickSome(r, sociable, r.int(5, 20), c)
          : kind && !["quiet", "saver", "crypto_user"].includes(kind)
            ? pickSome(r, sociable, r.int(1, 4), c)
            : [];
    const outside = Array.from(
      { length: kind === "quiet" || kind === "saver" ? r.int(0, 2) : r.int(2, 6) },
      () => w.outsider(),
    );
    c.friends.push(...inside.map((f) => f.id), ...outside);
  }
}

function pickSome(r: Random, pool: CustomerDraft[], n: number, self: CustomerDraft): CustomerDraft[] {
  if (pool.length < 2) return [];
  const out: CustomerDraft[] = [];
  for (let i = 0; i < n; i++) {
    const f = r.pick(pool);
    if (f !== self && !out.includes(f)) out.push(f);
  }
  return out;
}
