import { type MoneyEventKind, RULE_NAMES, type RuleName } from "@/contract/monitoring";

/**
 * Transaction monitoring rules (issue 30 §3, decision 031): pure functions over one customer's event history.
 * The live path (monitor-event.ts) loads that history from the database and the benchmark's synthetic
 * population (population.ts) builds it in memory; both call `evaluateRules`, so what is measured is what runs.
 * Times are epoch milliseconds; amounts are integer cents.
 */
/**
 * credit: money in from a bank or staff; deposit: USDC received on chain; transfer: USDC sent out; tag_out /
 * tag_in: a payment by $tag, paid (money out) or received (money in).
 */
export type { MoneyEventKind };

export interface MoneyEvent {
  id: string;
  kind: MoneyEventKind;
  at: number;
  amountCents: number;
  /** The USDC address a transfer goes to (lowercase); null otherwise. */
  address: string | null;
  /** The other customer of a payment by $tag (their user id); absent or null otherwise. */
  counterparty?: string | null;
  /** How the money movement started. */
  channel?: "direct" | "schedule" | "request";
}

/** How many of the other customers who paid an address the many-to-one rule's evidence names (the most recent). */
export const ADDRESS_SENDERS_LISTED = 20;

/** Everything a rule may look at for one event. */
export interface MonitoringInput {
  event: MoneyEvent;
  /** The customer's earlier money events within `lookbackDays` (the current event excluded), any order. */
  history: MoneyEvent[];
  /** The customer's last money event before the lookback window, if any (dormancy beyond it). */
  activityBeforeLookbackAt: number | null;
  accountOpenedAt: number;
  /** When each of the customer's devices first signed in. */
  deviceFirstSeen: number[];
  /**
   * Other customers who paid the event's address within the many-to-one window: each with their latest transfer
   * there. The database loader reads only the ADDRESS_SENDERS_LISTED most recent (an exchange's address may have
   * thousands) and gives the whole count in `addressSenderCount`; without it, the list is all of them.
   */
  addressSenders: { customerId: string; at: number }[];
  addressSenderCount?: number;
  /** The customer's own earlier alerts (cooldown). */
  recentAlerts: { rule: RuleName; at: number }[];
}

export interface RuleCommon {
  enabled: boolean;
  /** A blocking alert holds the customer's money out (transfers wait under review) like a sanctions hit. */
  blocking: boolean;
  /** The same rule does not alert the same customer again within this many days. */
  cooldownDays: number;
}

/** One typed configuration for every rule; `defaultMonitoringConfig` documents each default. */
export interface MonitoringConfig {
  lookbackDays: number;
  structuring: RuleCommon & {
    /** The limits people stay under: APPROVAL_THRESHOLD (money in) and the daily transfer limit. */
    thresholdsCents: number[];
    /** "Just under": at least (1 − band) × threshold and below it. */
    band: number;
    windowDays: number;
    /** How many such events in the window (the current one included) make an alert. */
    minCount: number;
  };
  velocity: RuleCommon & {
    windowDays: number;
    /** The customer's own average over this many days before the window is the baseline. */
    baselineDays: number;
    /** The window's total must reach this many times the baseline for the same span... */
    multiplier: number;
    /** ...and at least this much (small accounts' doubling is not news). */
    minAmountCents: number;
    /** Customers newer than this have no history to compare with (other rules cover them). */
    minHistoryDays: number;
  };
  firstLargeNewAddress: RuleCommon & {
    minAmountCents: number;
    /** And at least this many times the customer's largest earlier transfer. */
    multipleOfLargest: number;
  };
  rapidInOut: RuleCommon & {
    windowHours: number;
    /** Money in within the window must total at least this... */
    minInCents: number;
    /** ...and the money out since the first of those credits (this transfer included) this share of it; the
     * credits from any one of them on count on their own too. */
    outShare: number;
  };
  newDeviceNewAddress: RuleCommon & {
    /** A device first seen this recently... */
    deviceWindowHours: number;
    /** ...at least this long after the account's first device (a new customer's second browser is not news). */
    establishedDays: number;
    minAmountCents: number;
  };
  dormantReactivated: RuleCommon & {
    dormantDays: number;
    minAmountCents: number;
  };
  manyToOneAddress: RuleCommon & {
    windowDays: number;
    /** Distinct customers (this one included) sending to one address within the window. */
    minCustomers: number;
  };
}

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The defaults (decision 031), tuned on the synthetic population (bench/COMPLIANCE.md). Blocking by default
 * only a new device followed by a transfer to a new address (account takeover: holding protects the customer).
 * Many customers paying one address is also a merchant's or payment processor's shared address: it alerts.
 */
export function defaultMonitoringConfig(limits: {
  approvalThresholdCents: number;
  dailyLimitCents: number;
}): MonitoringConfig {
  const common = { enabled: true, blocking: false, cooldownDays: 14 };
  return {
    lookbackDays: 120,
    structuring: {
      ...common,
      thresholdsCents: [limits.approvalThresholdCents, limits.dailyLimitCents],
      band: 0.1,
      windowDays: 7,
      minCount: 3,
    },
    velocity: {
      ...common,
      windowDays: 7,
      baselineDays: 90,
      multiplier: 4,
      minAmountCents: 300_000,
      minHistoryDays: 45,
    },
    firstLargeNewAddress: { ...common, minAmountCents: 150_000, multipleOfLargest: 3 },
    rapidInOut: { ...common, windowHours: 48, minInCents: 100_000, outShare: 0.8 },
    newDeviceNewAddress: {
      ...common,
      blocking: true,
      deviceWindowHours: 48,
      establishedDays: 7,
      minAmountCents: 20_000,
    },
    dormantReactivated: { ...common, dormantDays: 180, minAmountCents: 50_000 },
    manyToOneAddress: { ...common, windowDays: 14, minCustomers: 5 },
  };
}

export interface RuleAlert {
  rule: RuleName;
  /** 0–1: 0.5 at the rule's threshold, rising to 1 at twice it. */
  score: number;
  blocking: boolean;
  /** What the rule saw: stored with the alert and shown to compliance. */
  evidence: Record<string, unknown>;
}

type RuleResult = { observed: number; threshold: number; evidence: Record<string, unknown> } | null;

function scoreOf(observed: number, threshold: number): number {
  if (threshold <= 0) return 1;
  const s = 0.5 + (0.5 * (observed - threshold)) / threshold;
  return Math.round(Math.min(1, Math.max(0.5, s)) * 1000) / 1000;
}

const isIn = (e: MoneyEvent) => e.kind !== "transfer";
const sameDirection = (a: MoneyEvent, b: MoneyEvent) => isIn(a) === isIn(b);
const brief = (e: MoneyEvent) => ({
  id: e.id,
  kind: e.kind,
  at: new Date(e.at).toISOString(),
  amountCents: e.amountCents,
});

function isNewAddress(input: MonitoringInput): boolean {
  const address = input.event.address;
  return address !== null && !input.history.some((e) => e.kind === "transfer" && e.address === address);
}

function structuring(input: MonitoringInput, c: MonitoringConfig["structuring"]): RuleResult {
  const { event } = input;
  const justUnder = (amount: number) =>
    c.thresholdsCents.find((t) => amount < t && amount >= Math.ceil(t * (1 - c.band)));
  const threshold = justUnder(event.amountCents);
  if (threshold === undefined) return null;
  const from = event.at - c.windowDays * DAY;
  const events = [event, ...input.history].filter(
    (e) =>
      sameDirection(e, event) && e.at > from && e.at <= event.at && justUnder(e.amountCents) === threshold,
  );
  if (events.length < c.minCount) return null;
  return {
    observed: events.length,
    threshold: c.minCount,
    evidence: {
      limitCents: threshold,
      windowDays: c.windowDays,
      count: events.length,
      events: events.sort((a, b) => a.at - b.at).map(brief),
    },
  };
}

function velocity(input: MonitoringInput, c: MonitoringConfig["velocity"]): RuleResult {
  const { event } = input;
  // Money out only: income is lumpy (a monthly salary is four weeks' average in one week).
  if (event.kind !== "transfer" || event.at - input.accountOpenedAt < c.minHistoryDays * DAY) return null;
  const windowFrom = event.at - c.windowDays * DAY;
  const baselineFrom = windowFrom - c.baselineDays * DAY;
  let windowTotal = 0;
  let baselineTotal = 0;
  for (const e of [event, ...input.history]) {
    if (e.kind !== "transfer" || e.at > event.at) continue;
    if (e.at > windowFrom) windowTotal += e.amountCents;
    else if (e.at > baselineFrom) baselineTotal += e.amountCents;
  }
  if (windowTotal < c.minAmountCents) return null;
  // An account younger than the baseline is averaged over the days it has existed.
  const baselineDays = Math.max(
    c.minHistoryDays - c.windowDays,
    Math.min(c.baselineDays, (windowFrom - input.accountOpenedAt) / DAY),
  );
  const expected = (baselineTotal / baselineDays) * c.windowDays;
  const needed = Math.max(c.minAmountCents, expected * c.multiplier);
  if (windowTotal < needed) return null;
  return {
    observed: windowTotal,
    threshold: needed,
    evidence: {
      windowDays: c.windowDays,
      windowTotalCents: windowTotal,
      baselineDays: Math.round(baselineDays),
      expectedCents: Math.round(expected),
      multiplier: c.multiplier,
    },
  };
}

function firstLargeNewAddress(
  input: MonitoringInput,
  c: MonitoringConfig["firstLargeNewAddress"],
): RuleResult {
  const { event } = input;
  if (event.kind !== "transfer" || !isNewAddress(input)) return null;
  const largest = Math.max(
    0,
    ...input.history.filter((e) => e.kind === "transfer").map((e) => e.amountCents),
  );
  const needed = Math.max(c.minAmountCents, largest * c.multipleOfLargest);
  if (event.amountCents < needed) return null;
  return {
    observed: event.amountCents,
    threshold: needed,
    evidence: { address: event.address, amountCents: event.amountCents, largestEarlierCents: largest },
  };
}

function rapidInOut(input: MonitoringInput, c: MonitoringConfig["rapidInOut"]): RuleResult {
  const { event } = input;
  if (event.kind !== "transfer") return null;
  const from = event.at - c.windowHours * HOUR;
  const credits = input.history
    .filter((e) => isIn(e) && e.at > from && e.at <= event.at)
    .sort((a, b) => a.at - b.at);
  const transfers = input.history.filter((e) => e.kind === "transfer" && e.at <= event.at);
  // The credits from each one on: a salary a day earlier must not dilute a large credit that left at once.
  for (let i = 0; i < credits.length; i++) {
    const ins = credits.slice(i);
    const inTotal = ins.reduce((s, e) => s + e.amountCents, 0);
    if (inTotal < c.minInCents) break;
    const outs = [event, ...transfers.filter((e) => e.at >= ins[0]!.at)];
    const outTotal = outs.reduce((s, e) => s + e.amountCents, 0);
    const needed = Math.ceil(inTotal * c.outShare);
    if (outTotal < needed) continue;
    return {
      observed: outTotal,
      threshold: needed,
      evidence: {
        windowHours: c.windowHours,
        inTotalCents: inTotal,
        outTotalCents: outTotal,
        credits: ins.map(brief),
        transfers: outs.map(brief),
      },
    };
  }
  return null;
}

/**
 * A device first seen shortly before a transfer of a sizeable amount to a new address (account takeover). When it
 * blocks, create_transfer_request states this rule in SQL and decides it under the wallet lock (decision 049):
 * this copy judges the synthetic population, and blocking-rule.api.test.ts holds the two to the same answers.
 */
function newDeviceNewAddress(input: MonitoringInput, c: MonitoringConfig["newDeviceNewAddress"]): RuleResult {
  const { event } = input;
  if (event.kind !== "transfer" || event.amountCents < c.minAmountCents || !isNewAddress(input)) return null;
  const firstDevice = Math.min(...input.deviceFirstSeen);
  const recent = input.deviceFirstSeen.filter(
    (at) =>
      at >= firstDevice + c.establishedDays * DAY &&
      at <= event.at &&
      at > event.at - c.deviceWindowHours * HOUR,
  );
  if (recent.length === 0) return null;
  return newDeviceResult(event, Math.max(...recent), c);
}

/** What the new-device rule reports for a transfer after the device first seen at `newest`. */
function newDeviceResult(
  event: MoneyEvent,
  newest: number,
  c: MonitoringConfig["newDeviceNewAddress"],
): NonNullable<RuleResult> {
  const windowMs = c.deviceWindowHours * HOUR;
  return {
    // Sooner after the new device is worse: at the window's end the score is 0.5.
    observed: 2 * windowMs - (event.at - newest),
    threshold: windowMs,
    evidence: {
      deviceFirstSeenAt: new Date(newest).toISOString(),
      hoursAfterDevice: Math.round(((event.at - newest) / HOUR) * 10) / 10,
      address: event.address,
      amountCents: event.amountCents,
    },
  };
}

function dormantReactivated(input: MonitoringInput, c: MonitoringConfig["dormantReactivated"]): RuleResult {
  const { event } = input;
  if (event.amountCents < c.minAmountCents) return null;
  const earlier = input.history.filter((e) => e.at < event.at).map((e) => e.at);
  const last =
    earlier.length > 0 ? Math.max(...earlier) : (input.activityBeforeLookbackAt ?? input.accountOpenedAt);
  const quietDays = (event.at - last) / DAY;
  if (quietDays < c.dormantDays) return null;
  return {
    observed: quietDays,
    threshold: c.dormantDays,
    evidence: {
      quietDays: Math.floor(quietDays),
      lastActivityAt: new Date(last).toISOString(),
      amountCents: event.amountCents,
      kind: event.kind,
    },
  };
}

function manyToOneAddress(input: MonitoringInput, c: MonitoringConfig["manyToOneAddress"]): RuleResult {
  const { event } = input;
  if (event.kind !== "transfer" || event.address === null) return null;
  const from = event.at - c.windowDays * DAY;
  const others = new Set(
    input.addressSenders.filter((s) => s.at > from && s.at <= event.at).map((s) => s.customerId),
  );
  const customers = (input.addressSenderCount ?? others.size) + 1;
  if (customers < c.minCustomers) return null;
  return {
    observed: customers,
    threshold: c.minCustomers,
    evidence: {
      address: event.address,
      windowDays: c.windowDays,
      customers,
      // All of them up to ADDRESS_SENDERS_LISTED, else that many of the most recent: `customers` is the count.
      otherCustomerIds: [...others].sort(),
    },
  };
}

const RULES: { [R in RuleName]: (input: MonitoringInput, config: MonitoringConfig) => RuleResult } = {
  structuring: (i, c) => structuring(i, c.structuring),
  velocity: (i, c) => velocity(i, c.velocity),
  first_large_new_address: (i, c) => firstLargeNewAddress(i, c.firstLargeNewAddress),
  rapid_in_out: (i, c) => rapidInOut(i, c.rapidInOut),
  new_device_new_address: (i, c) => newDeviceNewAddress(i, c.newDeviceNewAddress),
  dormant_reactivated: (i, c) => dormantReactivated(i, c.dormantReactivated),
  many_to_one_address: (i, c) => manyToOneAddress(i, c.manyToOneAddress),
};

/** Each rule's own settings, by rule name. */
export function ruleSettings(config: MonitoringConfig, rule: RuleName): RuleCommon {
  const key = {
    structuring: "structuring",
    velocity: "velocity",
    first_large_new_address: "firstLargeNewAddress",
    rapid_in_out: "rapidInOut",
    new_device_new_address: "newDeviceNewAddress",
    dormant_reactivated: "dormantReactivated",
    many_to_one_address: "manyToOneAddress",
  } as const satisfies Record<RuleName, keyof MonitoringConfig>;
  return config[key[rule]];
}

function toAlert(
  rule: RuleName,
  result: NonNullable<RuleResult>,
  event: MoneyEvent,
  settings: RuleCommon,
): RuleAlert {
  return {
    rule,
    score: scoreOf(result.observed, result.threshold),
    blocking: settings.blocking,
    evidence: { ...result.evidence, event: brief(event) },
  };
}

/**
 * Every enabled rule's alert for this event, less those the customer had from the same rule within its cooldown,
 * and less the rules named in `except` (those the transfer function decided at request time).
 */
export function evaluateRules(
  input: MonitoringInput,
  config: MonitoringConfig,
  except: readonly RuleName[] = [],
): RuleAlert[] {
  const alerts: RuleAlert[] = [];
  for (const rule of RULE_NAMES) {
    const settings = ruleSettings(config, rule);
    if (!settings.enabled || except.includes(rule)) continue;
    const cooledFrom = input.event.at - settings.cooldownDays * DAY;
    if (input.recentAlerts.some((a) => a.rule === rule && a.at > cooledFrom && a.at <= input.event.at))
      continue;
    const result = RULES[rule](input, config);
    if (!result) continue;
    alerts.push(toAlert(rule, result, input.event, settings));
  }
  return alerts;
}

/**
 * The new-device rule's settings when it holds money at request time: create_transfer_request decides it then
 * (decision 049), and the monitoring consumer files the alert from that decision instead of deciding again. Null
 * when it is off or does not block (the consumer evaluates it like any other rule).
 */
export function newDeviceRuleAtRequest(
  config: MonitoringConfig,
): MonitoringConfig["newDeviceNewAddress"] | null {
  const c = config.newDeviceNewAddress;
  return c.enabled && c.blocking ? c : null;
}

/** The alert of the new-device rule the transfer function raised for `event`, after the device first seen at `deviceAt`. */
export function newDeviceAlertAt(event: MoneyEvent, deviceAt: number, config: MonitoringConfig): RuleAlert {
  const c = config.newDeviceNewAddress;
  return toAlert("new_device_new_address", newDeviceResult(event, deviceAt, c), event, c);
}
