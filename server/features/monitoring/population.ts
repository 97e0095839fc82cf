import { RULE_NAMES, type RuleName } from "@/contract/monitoring";
import {
  evaluateRules,
  type MoneyEvent,
  type MonitoringConfig,
  type MonitoringInput,
  type RuleAlert,
} from "@/server/features/monitoring/rules";

/**
 * A synthetic labelled population for measuring the monitoring rules (issue 30 §5, bench/COMPLIANCE.md): normal
 * customers (salaries, rent, everyday transfers to a few payees, the odd new payee, phone or deposit, quiet
 * spells, near misses such as two credits just under the approval threshold) and, about one in a hundred each,
 * customers showing one typology, on a background of the same normal life. Fixed seed: the same seed and size
 * give the same population. The month measured is the last 30 days; the 400 days before are history.
 */

export type Typology = RuleName | "normal";

export interface SyntheticCustomer {
  id: string;
  typology: Typology;
  /** Many-to-one customers share a group (the collection address); others have none. */
  group: string | null;
  openedAt: number;
  deviceFirstSeen: number[];
  events: MoneyEvent[];
}

export interface Population {
  customers: SyntheticCustomer[];
  monthStart: number;
  monthEnd: number;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MONTH_START = Date.UTC(2026, 9, 1);
const MONTH_END = MONTH_START + 30 * DAY;

/** mulberry32: small, fast and the same everywhere. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const between = (lo: number, hi: number) => lo + (hi - lo) * next();
  const int = (lo: number, hi: number) => Math.floor(between(lo, hi + 1));
  const logNormal = (median: number, sigma: number) => {
    const u = Math.max(next(), 1e-12);
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    return median * Math.exp(sigma * z);
  };
  return { next, between, int, logNormal, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof rng>;

interface Limits {
  approvalThresholdCents: number;
  dailyLimitCents: number;
}

class Builder {
  events: MoneyEvent[] = [];
  payees: string[] = [];
  private seq = 0;
  constructor(
    readonly id: string,
    readonly r: Rng,
  ) {}
  newAddress(): string {
    const address = `0x${this.id.replace(/\D/g, "").padStart(8, "0")}${(this.seq++).toString(16).padStart(32, "0")}`;
    this.payees.push(address);
    return address;
  }
  add(kind: MoneyEvent["kind"], at: number, amountCents: number, address: string | null = null) {
    const cents = Math.max(100, Math.round(amountCents));
    this.events.push({
      id: `${this.id}-${this.events.length}`,
      kind,
      at: Math.round(at),
      amountCents: cents,
      address,
    });
  }
  payee(): string {
    return this.payees[this.r.int(0, this.payees.length - 1)] ?? this.newAddress();
  }
}

/** A normal life between `from` and `to`: income, rent, everyday transfers, the odd new payee. */
function normalLife(
  b: Builder,
  from: number,
  to: number,
  opts: { maxTransferCents?: number; quiet?: boolean } = {},
) {
  const { r } = b;
  const cap = opts.maxTransferCents ?? 190_000;
  for (let i = r.int(2, 5); i > 0; i--) b.newAddress();
  const quiet = opts.quiet ?? r.chance(0.03);
  const salaried = !quiet && r.chance(0.7);
  const salary = r.between(150_000, 600_000);
  const everyDays = r.chance(0.5) ? 14 : 30;
  const rent = salaried && r.chance(0.4) ? Math.min(salary * r.between(0.3, 0.6), 180_000, cap) : 0;
  const landlord = rent > 0 ? b.newAddress() : null;
  if (salaried) {
    for (let t = from + r.between(0, everyDays) * DAY; t < to; t += everyDays * DAY) {
      b.add("credit", t + r.between(-1, 1) * HOUR, salary * r.between(0.97, 1.03));
      if (landlord && r.chance(everyDays === 14 ? 0.5 : 1)) {
        b.add("transfer", t + r.between(2, 6) * DAY, rent, landlord);
      }
    }
  }
  const perMonth = quiet ? 0.5 : r.between(2, 10);
  const days = (to - from) / DAY;
  const transfers = Math.round((perMonth * days) / 30);
  for (let i = 0; i < transfers; i++) {
    const at = r.between(from, to);
    const address = r.chance(0.08) ? b.newAddress() : b.payee();
    b.add("transfer", at, Math.min(cap, r.logNormal(9_000, 0.9)), address);
  }
  // Money in for the unsalaried, and USDC deposits for some.
  if (!salaried) {
    const credits = Math.round(((quiet ? 0.5 : r.between(1, 4)) * days) / 30);
    for (let i = 0; i < credits; i++) b.add("credit", r.between(from, to), r.logNormal(30_000, 0.9));
  }
  if (r.chance(0.2)) {
    for (let i = Math.round(days / 30); i > 0; i--)
      b.add("deposit", r.between(from, to), r.logNormal(20_000, 1));
  }
}

function devicesFor(b: Builder, openedAt: number, newInMonth: boolean): number[] {
  const { r } = b;
  const devices = [openedAt];
  if (r.chance(0.3)) devices.push(r.between(openedAt, MONTH_START));
  if (newInMonth) devices.push(r.between(MONTH_START, MONTH_END));
  return devices;
}

/** The typologies' own patterns, each in the measured month on top of a normal life. */
function injectTypology(
  b: Builder,
  typology: RuleName,
  limits: Limits,
  collect: { address: string; start: number } | null,
) {
  const { r } = b;
  const monthAt = (marginDays = 8) => r.between(MONTH_START, MONTH_END - marginDays * DAY);
  switch (typology) {
    case "structuring": {
      const start = monthAt();
      const count = r.int(3, 5);
      const useCredits = r.chance(0.6);
      const limit = useCredits ? limits.approvalThresholdCents : limits.dailyLimitCents;
      for (let i = 0; i < count; i++) {
        const at = start + i * r.between(0.8, 1.6) * DAY;
        const amount = r.between(limit * 0.9, limit - 1);
        if (useCredits) b.add("credit", at, amount);
        else b.add("transfer", at, amount, b.payee());
      }
      return;
    }
    case "velocity": {
      const start = monthAt();
      b.add("credit", start - 10 * DAY, r.between(400_000, 900_000));
      for (let i = r.int(5, 8); i > 0; i--)
        b.add("transfer", start + r.between(0, 6) * DAY, r.between(60_000, 150_000), b.payee());
      return;
    }
    case "first_large_new_address":
      b.add("transfer", monthAt(0), r.between(150_000, limits.dailyLimitCents - 1), b.newAddress());
      return;
    case "rapid_in_out": {
      const at = monthAt(3);
      const amount = r.between(100_000, 250_000);
      b.add("credit", at, amount);
      let left = amount * r.between(0.85, 0.98);
      for (let day = 0; left > 0; day++) {
        const part = Math.min(left, 170_000);
        b.add("transfer", at + (day * 20 + r.between(2, 20)) * HOUR, part, b.payee());
        left -= part;
      }
      return;
    }
    case "new_device_new_address":
      // The device was added by devicesFor; the transfer follows it.
      return;
    case "dormant_reactivated":
      b.add("credit", monthAt(0), r.between(60_000, 300_000));
      return;
    case "many_to_one_address":
      b.add("transfer", collect!.start + r.between(0, 10) * DAY, r.between(10_000, 90_000), collect!.address);
      return;
    case "fan_out": {
      const at = monthAt(3);
      for (let i = r.int(4, 7); i > 0; i--)
        b.add("transfer", at + r.between(0, 30) * HOUR, r.between(20_000, 60_000), b.newAddress());
      return;
    }
    case "incoming_burst": {
      const at = monthAt(3);
      for (let i = r.int(8, 14); i > 0; i--)
        b.add("credit", at + r.between(0, 36) * HOUR, r.between(10_000, 40_000));
      return;
    }
  }
}

const SHARE = 0.01;

export function generatePopulation(seed: number, size: number, limits: Limits): Population {
  const r = rng(seed);
  const customers: SyntheticCustomer[] = [];
  const perTypology = Math.max(5, Math.round(size * SHARE));
  const plan: { typology: Typology; group: string | null }[] = [];
  for (const rule of RULE_NAMES) {
    if (rule === "many_to_one_address") {
      let left = perTypology;
      for (let g = 0; left > 0; g++) {
        const members = Math.min(left, r.int(5, 8));
        for (let i = 0; i < Math.max(members, 5); i++) plan.push({ typology: rule, group: `collect-${g}` });
        left -= members;
      }
    } else for (let i = 0; i < perTypology; i++) plan.push({ typology: rule, group: null });
  }
  while (plan.length < size) plan.push({ typology: "normal", group: null });
  const collectAddresses = new Map<string, { address: string; start: number }>();
  plan.forEach(({ typology, group }, n) => {
    const id = `c${String(n).padStart(6, "0")}`;
    const b = new Builder(id, r);
    const openedAt = MONTH_START - (r.chance(0.15) ? r.between(5, 150) : r.between(150, 1500)) * DAY;
    const historyFrom = Math.max(openedAt, MONTH_START - 400 * DAY);
    if (typology === "dormant_reactivated") {
      const dormantOpenedAt = MONTH_START - r.between(600, 1500) * DAY;
      normalLife(
        b,
        Math.max(dormantOpenedAt, MONTH_START - 600 * DAY),
        MONTH_START - r.between(200, 400) * DAY,
      );
      injectTypology(b, typology, limits, null);
      customers.push({
        id,
        typology,
        group,
        openedAt: dormantOpenedAt,
        deviceFirstSeen: [dormantOpenedAt],
        events: b.events,
      });
      return;
    }
    const newDevice = typology === "new_device_new_address" || (typology === "normal" && r.chance(0.05));
    normalLife(b, historyFrom, MONTH_END, {
      maxTransferCents: typology === "first_large_new_address" ? 45_000 : undefined,
    });
    if (typology === "normal" && r.chance(0.02)) {
      // Near miss: two credits just under the approval threshold in a week.
      const at = r.between(MONTH_START, MONTH_END - 7 * DAY);
      b.add("credit", at, r.between(90_000, 99_999));
      b.add("credit", at + r.between(1, 5) * DAY, r.between(90_000, 99_999));
    }
    const deviceFirstSeen = devicesFor(b, openedAt, newDevice);
    if (typology === "new_device_new_address") {
      const device = Math.max(Math.min(deviceFirstSeen.at(-1)!, MONTH_END - 2 * DAY), openedAt + 8 * DAY);
      deviceFirstSeen[deviceFirstSeen.length - 1] = device;
      b.add("transfer", device + r.between(1, 40) * HOUR, r.between(20_000, 120_000), b.newAddress());
    } else if (typology !== "normal") {
      let collect: { address: string; start: number } | null = null;
      if (group) {
        collect = collectAddresses.get(group) ?? {
          address: `0xc0ffee${group.replace(/\D/g, "").padStart(34, "0")}`,
          start: r.between(MONTH_START, MONTH_END - 10 * DAY),
        };
        collectAddresses.set(group, collect);
      }
      injectTypology(b, typology, limits, collect);
    }
    customers.push({ id, typology, group, openedAt, deviceFirstSeen, events: b.events });
  });
  for (const c of customers) c.events.sort((a, b) => a.at - b.at);
  return { customers, monthStart: MONTH_START, monthEnd: MONTH_END };
}

export interface RuleFigures {
  rule: RuleName;
  alerts: number;
  truePositives: number;
  onNormal: number;
  precision: number;
  recall: number;
  alertsPer1000: number;
}

export interface MonitoringAccuracy {
  customers: number;
  normalCustomers: number;
  events: number;
  rules: RuleFigures[];
  normalAlertsPer1000PerMonth: number;
  alertsPer1000PerMonth: number;
  evaluateMs: number;
}

/**
 * Runs the rules over every event of the measured month, each seeing what the live path would: the customer's
 * earlier events, devices and alerts, and other customers' earlier transfers to the same address. A rule's
 * precision counts its alerts (one per customer) on customers of its own typology; its recall counts its own
 * typology's customers it alerted on (for many-to-one: the collection addresses it found).
 */
export function measureMonitoring(population: Population, config: MonitoringConfig): MonitoringAccuracy {
  const started = performance.now();
  const bySender = new Map<string, { customerId: string; at: number }[]>();
  for (const c of population.customers)
    for (const e of c.events)
      if (e.kind === "transfer" && e.address) {
        const list = bySender.get(e.address) ?? [];
        list.push({ customerId: c.id, at: e.at });
        bySender.set(e.address, list);
      }
  const alerted = new Map<RuleName, Set<string>>(RULE_NAMES.map((r) => [r, new Set()]));
  let alertCount = 0;
  let normalAlerts = 0;
  let events = 0;
  for (const c of population.customers) {
    const recentAlerts: { rule: RuleName; at: number }[] = [];
    c.events.forEach((event, i) => {
      if (event.at < population.monthStart || event.at >= population.monthEnd) return;
      events++;
      const lookbackFrom = event.at - config.lookbackDays * 86_400_000;
      const earlier = c.events.slice(0, i);
      const input: MonitoringInput = {
        event,
        history: earlier.filter((e) => e.at >= lookbackFrom),
        activityBeforeLookbackAt: earlier.filter((e) => e.at < lookbackFrom).at(-1)?.at ?? null,
        accountOpenedAt: c.openedAt,
        deviceFirstSeen: c.deviceFirstSeen.filter((at) => at <= event.at),
        addressSenders: event.address
          ? (bySender.get(event.address) ?? []).filter((s) => s.customerId !== c.id && s.at < event.at)
          : [],
        recentAlerts,
      };
      const alerts: RuleAlert[] = evaluateRules(input, config);
      for (const a of alerts) {
        recentAlerts.push({ rule: a.rule, at: event.at });
        alerted.get(a.rule)!.add(c.id);
        alertCount++;
        if (c.typology === "normal") normalAlerts++;
      }
    });
  }
  const normalCustomers = population.customers.filter((c) => c.typology === "normal").length;
  const size = population.customers.length;
  const typologyOf = new Map(population.customers.map((c) => [c.id, c]));
  const rules = RULE_NAMES.map((rule): RuleFigures => {
    const hit = [...alerted.get(rule)!];
    const own = hit.filter((id) => typologyOf.get(id)!.typology === rule);
    const members = population.customers.filter((c) => c.typology === rule);
    let recall: number;
    if (rule === "many_to_one_address") {
      const groups = new Set(members.map((c) => c.group));
      const found = new Set(own.map((id) => typologyOf.get(id)!.group));
      recall = groups.size === 0 ? 1 : found.size / groups.size;
    } else recall = members.length === 0 ? 1 : own.length / members.length;
    return {
      rule,
      alerts: hit.length,
      truePositives: own.length,
      onNormal: hit.filter((id) => typologyOf.get(id)!.typology === "normal").length,
      precision: hit.length === 0 ? 1 : own.length / hit.length,
      recall,
      alertsPer1000: (hit.length / size) * 1000,
    };
  });
  return {
    customers: size,
    normalCustomers,
    events,
    rules,
    normalAlertsPer1000PerMonth: (normalAlerts / normalCustomers) * 1000,
    alertsPer1000PerMonth: (alertCount / size) * 1000,
    evaluateMs: performance.now() - started,
  };
}
