import { type MoneyEventKind, RULE_NAMES, type RuleName } from "@/contract/monitoring";

/**
 * Transaction monitoring rules (decisions 031 and 054): pure functions over one customer's event
 * history, each weighing graded evidence over fading windows. The live path (load-monitoring-input.ts, the
 * monitoring consumer and monitor-event.ts) loads that history from the database and the frozen scenarios
 * of decision 054 (scripts/monitoring-scenarios) build it in memory; both call `evaluateRules`, so what is
 * measured is what runs. Times are epoch milliseconds; amounts are integer cents.
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

/**
 * How many other customers who paid an address the loader counts at most (decision 064): the read stays bounded
 * however popular the address. Never fewer than the rule needs for its highest score (`addressSendersCounted`), so
 * the alert and its score are the same as with the full count; only the evidence says "at least".
 */
export const ADDRESS_SENDERS_COUNTED = 200;

/** The count at which the many-to-one rule's score reaches 1 (scoreOf), or ADDRESS_SENDERS_COUNTED if more. */
export function addressSendersCounted(config: MonitoringConfig): number {
  const c = config.manyToOneAddress;
  return Math.max(ADDRESS_SENDERS_COUNTED, Math.ceil(2 * c.minScore * c.minCustomers));
}

/** Everything a rule may look at for one event. */
export interface MonitoringInput {
  event: MoneyEvent;
  /** The customer's earlier money events within `lookbackDays` (the current event excluded), any order. */
  history: MoneyEvent[];
  /**
   * The customer's last money event before the lookback window that counts as activity for the dormancy rule (at
   * least `dormancySignificanceCents(event)`: a $1 keep-alive is not activity), if any.
   */
  activityBeforeLookbackAt: number | null;
  accountOpenedAt: number;
  /** When each of the customer's devices first signed in. */
  deviceFirstSeen: number[];
  /**
   * Other customers who paid the event's address within the many-to-one window: each with their latest transfer
   * there. The database loader reads only the ADDRESS_SENDERS_LISTED most recent (an exchange's address may have
   * thousands) and gives the whole count in `addressSenderCount`, up to `addressSendersCounted(config)`
   * (`addressSendersCapped` when it stopped there); without it, the list is all of them.
   */
  addressSenders: { customerId: string; at: number }[];
  addressSenderCount?: number;
  addressSendersCapped?: boolean;
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

/**
 * A graded rule (decision 054): it weighs what it sees into one evidence score, 1 where the typology is plainly
 * there (the old rule's edge), and alerts from `minScore`. No single edge decides: an amount a little further
 * under a limit, a spread a day longer or a share a little lower weakens the score a little, never to nothing.
 */
export interface GradedRule extends RuleCommon {
  minScore: number;
}

/** One typed configuration for every rule; `defaultMonitoringConfig` documents each default. */
export interface MonitoringConfig {
  lookbackDays: number;
  structuring: GradedRule & {
    /** The limits people stay under: APPROVAL_THRESHOLD (money in) and the daily transfer limit. */
    thresholdsCents: number[];
    /** An amount at least (1 − fullBand) × a limit, and below it, weighs 1... */
    fullBand: number;
    /** ...down to 0 at (1 − band) × the limit, in a straight line. */
    band: number;
    windowDays: number;
    /** The fading tail after the window (half-life). */
    tailDays: number;
    /** Score 1: this many full-weight amounts (the current one included). */
    count: number;
  };
  velocity: GradedRule & {
    windowDays: number;
    tailDays: number;
    /** The customer's own average over this many days before the window is the baseline. */
    baselineDays: number;
    /** Score 1: the window's total reaches this many times the baseline for the same span... */
    multiplier: number;
    /** ...and at least this much (small accounts' doubling is not news). */
    minAmountCents: number;
    /** Customers newer than this have no history to compare with (other rules cover them). */
    minHistoryDays: number;
  };
  firstLargeNewAddress: GradedRule & {
    /** Score 1 by size alone at this amount... */
    minAmountCents: number;
    /** ...when it is also this many times the customer's largest earlier payment out... */
    multipleOfLargest: number;
    /** ...and a customer with none at all counts as this many times over (capped: size still has to show). */
    noHistoryFactor: number;
    /** A payee first paid this recently is still new: what they were sent since counts as one payment. */
    newForHours: number;
  };
  rapidInOut: GradedRule & {
    windowHours: number;
    tailHours: number;
    /** Score 1: money in of this much... */
    minInCents: number;
    /** ...this share of it gone out since, within the window. */
    outShare: number;
    /** Money out past this share of the money in weighs less and less (to nothing 30 points more): a pass-on
     * sends on about what came in, a customer spending their balance sends more. */
    overspend: number;
    /** Money out to a payee paid about as much before weighs this much (the rent is not a pass-on). */
    knownPayeeWeight: number;
    /** Money out as large as the customer's usual for as long weighs nothing, this many times it fully. */
    unusualMultiple: number;
    /** The usual is averaged over at least this many days (a new account's first weeks). */
    minUsualDays: number;
  };
  newDeviceNewAddress: RuleCommon & {
    /** A device first seen this recently... */
    deviceWindowHours: number;
    /** ...at least this long after the account's first device (a new customer's second browser is not news). */
    establishedDays: number;
    minAmountCents: number;
  };
  dormantReactivated: GradedRule & {
    /** Score 1: this many quiet days... */
    dormantDays: number;
    /** ...then this much. */
    minAmountCents: number;
    /** An earlier event counts as activity from this share of the event's amount... */
    activityShare: number;
    /** ...and never below this (a keep-alive of $1 leaves the account dormant). */
    activityFloorCents: number;
    /** The reactivation: the activity of these last days is judged against the quiet before it. */
    reactivationDays: number;
    /** Money in weighs this much of its amount (money out fully). */
    moneyInWeight: number;
  };
  manyToOneAddress: GradedRule & {
    windowDays: number;
    /** Score 1: distinct customers (this one included) sending to one address within the window. */
    minCustomers: number;
  };
  fanOut: GradedRule & {
    windowHours: number;
    tailHours: number;
    /** Score 1: this many payees never paid before (addresses or $tags)... */
    minNewPayees: number;
    /** ...each weighing fully from this amount (a $20 dinner split weighs 0.2)... */
    fullPaymentCents: number;
    /** ...and this much sent to them in all. */
    minTotalCents: number;
  };
  incomingBurst: GradedRule & {
    windowHours: number;
    tailHours: number;
    /** Score 1: this many payments in (credits, deposits, $tag receipts)... */
    minCount: number;
    /** ...and this many times the customer's usual count for the same span over the lookback... */
    multiplier: number;
    /** ...totalling this much. */
    minTotalCents: number;
  };
}

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The defaults (decisions 031 and 054), tuned on the frozen scenarios (bench/COMPLIANCE.md). Blocking by
 * default only a new device followed by a transfer to a new address (account takeover: holding protects the
 * customer). Many customers paying one address is also a merchant's or payment processor's shared address: it
 * alerts.
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
      minScore: 0.7,
      thresholdsCents: [limits.approvalThresholdCents, limits.dailyLimitCents],
      fullBand: 0.1,
      band: 0.3,
      windowDays: 7,
      tailDays: 2,
      count: 3,
    },
    velocity: {
      ...common,
      minScore: 0.95,
      windowDays: 7,
      tailDays: 3,
      baselineDays: 90,
      multiplier: 6,
      minAmountCents: 300_000,
      minHistoryDays: 45,
    },
    firstLargeNewAddress: {
      ...common,
      minScore: 1,
      minAmountCents: 150_000,
      multipleOfLargest: 3,
      noHistoryFactor: 1.25,
      newForHours: 72,
    },
    rapidInOut: {
      ...common,
      minScore: 0.85,
      windowHours: 48,
      tailHours: 24,
      minInCents: 100_000,
      outShare: 0.8,
      overspend: 1,
      knownPayeeWeight: 0.6,
      unusualMultiple: 3,
      minUsualDays: 30,
    },
    newDeviceNewAddress: {
      ...common,
      blocking: true,
      deviceWindowHours: 48,
      establishedDays: 7,
      minAmountCents: 40_000,
    },
    dormantReactivated: {
      ...common,
      minScore: 0.75,
      dormantDays: 180,
      minAmountCents: 50_000,
      activityShare: 0.1,
      activityFloorCents: 2_500,
      reactivationDays: 7,
      moneyInWeight: 0.35,
    },
    manyToOneAddress: { ...common, minScore: 0.8, windowDays: 14, minCustomers: 5 },
    fanOut: {
      ...common,
      minScore: 0.8,
      windowHours: 48,
      tailHours: 24,
      minNewPayees: 4,
      fullPaymentCents: 10_000,
      minTotalCents: 100_000,
    },
    incomingBurst: {
      ...common,
      minScore: 0.95,
      windowHours: 48,
      tailHours: 24,
      minCount: 6,
      multiplier: 4,
      minTotalCents: 150_000,
    },
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

const round = (x: number, places = 3) => Math.round(x * 10 ** places) / 10 ** places;
/** 0 at `lo`, 1 at `hi`, a straight line between. */
const ramp = (x: number, lo: number, hi: number) => Math.min(1, Math.max(0, (x - lo) / (hi - lo)));
/** The weight of evidence `ageMs` old in a window of `windowMs` whose end fades with a half-life of `tailMs`. */
export const fading = (ageMs: number, windowMs: number, tailMs: number) =>
  ageMs < 0 ? 0 : ageMs <= windowMs ? 1 : 0.5 ** ((ageMs - windowMs) / tailMs);
/** A fading window's length counted as a plain one: its full days plus what its tail adds up to. */
const fadingLength = (windowMs: number, tailMs: number) => windowMs + tailMs / Math.LN2;
/** How far back a fading window is worth reading: past this, an event weighs under 1/64. */
const fadingReach = (windowMs: number, tailMs: number) => windowMs + 6 * tailMs;

/** A graded rule's result: the score against its minimum, and the evidence with the score in it. */
function graded(score: number, minScore: number, evidence: Record<string, unknown>): RuleResult {
  if (!(score >= minScore)) return null;
  return { observed: score, threshold: minScore, evidence: { ...evidence, evidenceScore: round(score) } };
}

export const isMoneyIn = (e: MoneyEvent) =>
  e.kind === "credit" || e.kind === "deposit" || e.kind === "tag_in";
export const isMoneyOut = (e: MoneyEvent) => e.kind === "transfer" || e.kind === "tag_out";
const sameDirection = (a: MoneyEvent, b: MoneyEvent) => isMoneyIn(a) === isMoneyIn(b);
const brief = (e: MoneyEvent) => ({
  id: e.id,
  kind: e.kind,
  at: new Date(e.at).toISOString(),
  amountCents: e.amountCents,
  ...(e.counterparty ? { counterparty: e.counterparty } : {}),
  ...(e.channel ? { channel: e.channel } : {}),
});

/** Whom money out goes to: a USDC address, or another customer by $tag; null for money in. */
const payeeOf = (e: MoneyEvent): string | null =>
  e.kind === "transfer" && e.address
    ? `address:${e.address}`
    : e.kind === "tag_out" && e.counterparty
      ? `tag:${e.counterparty}`
      : null;

function isNewAddress(input: MonitoringInput): boolean {
  const address = input.event.address;
  return address !== null && !input.history.some((e) => e.kind === "transfer" && e.address === address);
}

/**
 * Amounts just under a limit, again and again: each same-direction amount in the band under a limit weighs by how
 * close it is (1 from 90% of the limit, 0 at 70%) and by its age (1 within 7 days, halving every 2 days after),
 * less as many as the customer usually has in as long; score 1 is three full-weight amounts more than usual.
 */
function structuring(
  input: MonitoringInput,
  c: MonitoringConfig["structuring"],
  lookbackMs: number,
): RuleResult {
  const { event } = input;
  const closeness = (amount: number, limit: number) =>
    amount >= limit ? 0 : ramp(amount / limit, 1 - c.band, 1 - c.fullBand);
  const windowMs = c.windowDays * DAY;
  const tailMs = c.tailDays * DAY;
  const from = event.at - fadingReach(windowMs, tailMs);
  let best: RuleResult = null;
  for (const limit of c.thresholdsCents) {
    if (closeness(event.amountCents, limit) === 0) continue;
    const events = [event, ...input.history]
      .filter((e) => sameDirection(e, event) && e.at > from && e.at <= event.at)
      .map((e) => ({
        e,
        weight: closeness(e.amountCents, limit) * fading(event.at - e.at, windowMs, tailMs),
      }))
      .filter((x) => x.weight > 0.01);
    const weight = events.reduce((s, x) => s + x.weight, 0);
    // The customer's usual: amounts this close to the limit in the lookback before, per window (a gig worker's
    // good weeks land there every month; what is news is more of them than usual).
    const usualFrom = Math.max(input.accountOpenedAt, event.at - lookbackMs);
    let before = 0;
    for (const e of input.history)
      if (sameDirection(e, event) && e.at <= from && e.at >= usualFrom)
        before += closeness(e.amountCents, limit);
    const usualSpan = Math.max(from - usualFrom, 4 * fadingLength(windowMs, tailMs));
    const usual = (before / usualSpan) * fadingLength(windowMs, tailMs);
    const result = graded((weight - usual) / c.count, c.minScore, {
      limitCents: limit,
      windowDays: c.windowDays,
      count: events.length,
      weightedCount: round(weight, 2),
      usualPerWindow: round(usual, 2),
      events: events
        .sort((a, b) => a.e.at - b.e.at)
        .map((x) => ({
          ...brief(x.e),
          shareOfLimit: round(x.e.amountCents / limit),
          weight: round(x.weight),
        })),
    });
    if (result && (!best || result.observed > best.observed)) best = result;
  }
  return best;
}

/**
 * Money out far above the customer's usual: the last week's money out (fading after it) against a week of the
 * customer's average over the 90 days before, and against a minimum; score 1 at six times the usual and $3,000.
 */
function velocity(input: MonitoringInput, c: MonitoringConfig["velocity"]): RuleResult {
  const { event } = input;
  // Money out only: income is lumpy (a monthly salary is four weeks' average in one week).
  if (!isMoneyOut(event) || event.at - input.accountOpenedAt < c.minHistoryDays * DAY) return null;
  const windowMs = c.windowDays * DAY;
  const tailMs = c.tailDays * DAY;
  const windowFrom = event.at - windowMs;
  const baselineFrom = windowFrom - c.baselineDays * DAY;
  let windowTotal = 0;
  let baselineTotal = 0;
  for (const e of [event, ...input.history]) {
    if (!isMoneyOut(e) || e.at > event.at) continue;
    const w = fading(event.at - e.at, windowMs, tailMs);
    windowTotal += e.amountCents * w;
    if (e.at <= windowFrom && e.at > baselineFrom) baselineTotal += e.amountCents * (1 - w);
  }
  // An account younger than the baseline is averaged over the days it has existed.
  const baselineDays = Math.max(
    c.minHistoryDays - c.windowDays,
    Math.min(c.baselineDays, (windowFrom - input.accountOpenedAt) / DAY),
  );
  // What the customer's usual would weigh in the same fading window.
  const expected = (baselineTotal / baselineDays) * (fadingLength(windowMs, tailMs) / DAY);
  const needed = Math.max(c.minAmountCents, expected * c.multiplier);
  return graded(windowTotal / needed, c.minScore, {
    windowDays: c.windowDays,
    windowTotalCents: Math.round(windowTotal),
    baselineDays: Math.round(baselineDays),
    expectedCents: Math.round(expected),
    multiplier: c.multiplier,
  });
}

/**
 * A large payment to a payee never paid before (a USDC address or a $tag), or first paid within `newForHours` (a
 * large sum split over two days is one): what they were sent since, against $1,500, times that against three
 * times the customer's largest earlier payment out (capped: a customer who never paid anyone counts 1.25).
 */
function firstLargeNewAddress(
  input: MonitoringInput,
  c: MonitoringConfig["firstLargeNewAddress"],
): RuleResult {
  const { event } = input;
  const payee = payeeOf(event);
  if (payee === null) return null;
  const toPayee = input.history.filter((e) => e.at <= event.at && payeeOf(e) === payee);
  const firstAt = Math.min(event.at, ...toPayee.map((e) => e.at));
  if (event.at - firstAt > c.newForHours * HOUR) return null;
  const sentCents = event.amountCents + toPayee.reduce((s, e) => s + e.amountCents, 0);
  const largest = Math.max(
    0,
    ...input.history.filter((e) => isMoneyOut(e) && e.at < firstAt).map((e) => e.amountCents),
  );
  const size = Math.min(2, sentCents / c.minAmountCents);
  const relative =
    largest > 0
      ? Math.min(c.noHistoryFactor, sentCents / (largest * c.multipleOfLargest))
      : c.noHistoryFactor;
  return graded(size * relative, c.minScore, {
    ...(event.address ? { address: event.address } : { payee: event.counterparty }),
    amountCents: event.amountCents,
    ...(toPayee.length > 0 ? { sentSinceFirstCents: sentCents, payments: toPayee.length + 1 } : {}),
    largestEarlierCents: largest,
  });
}

/**
 * Money in, then out again soon: for the money in from each recent credit on (a salary a day earlier must not dilute
 * a large credit that left at once), the share of it gone out since (money out to a payee paid about as much before
 * weighs less: the rent is the customer's usual), graded by the share against 80%, the amount in against $1,000 and how soon (1
 * within 48 hours, halving every 24 after).
 */
function rapidInOut(
  input: MonitoringInput,
  c: MonitoringConfig["rapidInOut"],
  lookbackMs: number,
): RuleResult {
  const { event } = input;
  if (!isMoneyOut(event)) return null;
  const windowMs = c.windowHours * HOUR;
  const tailMs = c.tailHours * HOUR;
  const from = event.at - fadingReach(windowMs, tailMs);
  const credits = input.history
    .filter((e) => isMoneyIn(e) && e.at > from && e.at <= event.at)
    .sort((a, b) => a.at - b.at);
  const outs = [event, ...input.history.filter((e) => isMoneyOut(e) && e.at <= event.at && e.at > from)];
  // The customer's usual money out over as long as the window, from the lookback before it: a business paying out
  // what came in, as it does every week, is not passing money on.
  const usualFrom = Math.max(input.accountOpenedAt, event.at - lookbackMs);
  const usualSpan = Math.max(from - usualFrom, c.minUsualDays * DAY);
  const usualOut =
    (input.history.reduce(
      (s, e) => (isMoneyOut(e) && e.at <= from && e.at >= usualFrom ? s + e.amountCents : s),
      0,
    ) /
      usualSpan) *
    fadingLength(windowMs, tailMs);
  let best: RuleResult = null;
  for (let i = 0; i < credits.length; i++) {
    const ins = credits.slice(i);
    const firstAt = ins[0]!.at;
    const inTotal = ins.reduce((s, e) => s + e.amountCents, 0);
    const since = outs.filter((e) => e.at >= firstAt);
    const outWeighted = since.reduce((s, e) => {
      const payee = payeeOf(e);
      const usual = payee !== null && paidAlikeBefore(input.history, payee, e.amountCents, firstAt);
      return s + e.amountCents * (usual ? c.knownPayeeWeight : 1);
    }, 0);
    // A pass-on sends on about what came in; far more out than in is the customer's own balance being spent.
    const outTotal = since.reduce((s, e) => s + e.amountCents, 0);
    const share =
      Math.min(1.25, outWeighted / inTotal / c.outShare) *
      ramp(outTotal / inTotal, c.overspend + 0.3, c.overspend);
    // Below $1,000 in weakens the evidence; more does not make a salary paying the rent look like a pass-on.
    const size = Math.min(1, inTotal / c.minInCents);
    const soon = fading(event.at - firstAt, windowMs, tailMs);
    const unusual = ramp(outTotal / Math.max(1, usualOut), 1, c.unusualMultiple);
    const result = graded(share * size * soon * unusual, c.minScore, {
      windowHours: c.windowHours,
      hoursSinceFirstCredit: round((event.at - firstAt) / HOUR, 1),
      inTotalCents: inTotal,
      outTotalCents: outTotal,
      shareOut: round(outTotal / inTotal),
      usualOutCents: Math.round(usualOut),
      credits: ins.map(brief),
      transfers: since.map(brief),
    });
    if (result && (!best || result.observed > best.observed)) best = result;
  }
  return best;
}

/** Whether the customer had paid `payee` about `amountCents` (within a half either way) before `at`: the rent. */
function paidAlikeBefore(history: MoneyEvent[], payee: string, amountCents: number, at: number): boolean {
  return history.some(
    (e) =>
      e.at < at &&
      payeeOf(e) === payee &&
      e.amountCents * 1.5 >= amountCents &&
      e.amountCents <= amountCents * 1.5,
  );
}

/**
 * A device first seen shortly before a payment of a sizeable amount to a new payee (account takeover). When it
 * blocks, create_transfer_request states this rule in SQL for transfers and decides it under the wallet lock
 * (decision 049), blocking-rule.api.test.ts holding the two to the same answers; a payment by $tag is judged by
 * this copy after its commit (decision 054), and a blocking alert then holds the customer's money from then on.
 */
function newDeviceNewAddress(input: MonitoringInput, c: MonitoringConfig["newDeviceNewAddress"]): RuleResult {
  const { event } = input;
  const payee = payeeOf(event);
  if (payee === null || event.amountCents < c.minAmountCents) return null;
  if (event.kind === "transfer" ? !isNewAddress(input) : input.history.some((e) => payeeOf(e) === payee))
    return null;
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

/**
 * The least an earlier event must be to count as activity for the dormancy rule when `event` reactivates the
 * account: a share of the event's amount, never below a floor. The loader reads the last activity before the
 * lookback with the same figure.
 */
export function dormancySignificanceCents(event: MoneyEvent, config: MonitoringConfig): number {
  const c = config.dormantReactivated;
  return Math.max(c.activityFloorCents, Math.ceil(event.amountCents * c.activityShare));
}

/**
 * A dormant account suddenly moving money: the quiet days before its reactivation (its activity of the last
 * `reactivationDays`, this event's included) since the activity before it (an event of at least a tenth of this one:
 * a $1 keep-alive does not count) against 180, times the amount against $500 (capped at twice; money in alone weighs
 * `moneyInWeight` of it: a tax refund after a silence is common, money sent out after one is the risk).
 */
function dormantReactivated(input: MonitoringInput, c: MonitoringConfig["dormantReactivated"]): RuleResult {
  const { event } = input;
  const significant = Math.max(c.activityFloorCents, Math.ceil(event.amountCents * c.activityShare));
  const reactivatedFrom = event.at - c.reactivationDays * DAY;
  const counted = input.history.filter((e) => e.at < event.at && e.amountCents >= significant);
  const recent = counted.filter((e) => e.at >= reactivatedFrom);
  const before = counted.filter((e) => e.at < reactivatedFrom).map((e) => e.at);
  const last =
    before.length > 0 ? Math.max(...before) : (input.activityBeforeLookbackAt ?? input.accountOpenedAt);
  const reactivatedAt = Math.min(event.at, ...recent.map((e) => e.at));
  const quietDays = (reactivatedAt - last) / DAY;
  const smallEvents = input.history.filter((e) => e.at < reactivatedAt && e.at > last).length;
  const amount = event.amountCents * (isMoneyIn(event) ? c.moneyInWeight : 1);
  const score = Math.min(1.5, quietDays / c.dormantDays) * Math.min(2, amount / c.minAmountCents);
  return graded(score, c.minScore, {
    quietDays: Math.floor(quietDays),
    lastActivityAt: new Date(last).toISOString(),
    reactivatedAt: new Date(reactivatedAt).toISOString(),
    smallEventsIgnored: smallEvents,
    amountCents: event.amountCents,
    kind: event.kind,
  });
}

function manyToOneAddress(input: MonitoringInput, c: MonitoringConfig["manyToOneAddress"]): RuleResult {
  const { event } = input;
  if (event.kind !== "transfer" || event.address === null) return null;
  const from = event.at - c.windowDays * DAY;
  // A shop's published address is paid by its regulars month after month: what collects is an address many
  // customers start paying at once, so a customer who paid it before the window is not one of them.
  if (input.history.some((e) => e.kind === "transfer" && e.address === event.address && e.at <= from))
    return null;
  const others = new Set(
    input.addressSenders.filter((s) => s.at > from && s.at <= event.at).map((s) => s.customerId),
  );
  const customers = (input.addressSenderCount ?? others.size) + 1;
  return graded(customers / c.minCustomers, c.minScore, {
    address: event.address,
    windowDays: c.windowDays,
    customers,
    // All of them up to ADDRESS_SENDERS_LISTED, else that many of the most recent: `customers` is the count.
    otherCustomerIds: [...others].sort(),
    ...(input.addressSendersCapped ? { customersAtLeast: true } : {}),
  });
}

/**
 * Money out to many payees never paid before in a short time (a mule spreading money): each new payee weighs by
 * how recent (1 within 48 hours, halving every 24 after) and by its amount against $100; score 1 at four such
 * payees, times the total sent to them against $1,000 (as a square root, capped: the count leads).
 */
function fanOut(input: MonitoringInput, c: MonitoringConfig["fanOut"]): RuleResult {
  const { event } = input;
  if (payeeOf(event) === null) return null;
  const windowMs = c.windowHours * HOUR;
  const tailMs = c.tailHours * HOUR;
  const from = event.at - fadingReach(windowMs, tailMs);
  const recent = [
    event,
    ...input.history.filter((e) => e.at > from && e.at <= event.at && payeeOf(e) !== null),
  ];
  const older = input.history.filter((e) => e.at <= from);
  const known = new Set(older.map(payeeOf).filter((p): p is string => p !== null));
  // Each new payee once, at its first payment in the span, with everything it was sent there.
  const byPayee = new Map<string, { first: MoneyEvent; totalCents: number }>();
  for (const e of recent.sort((a, b) => a.at - b.at)) {
    const payee = payeeOf(e)!;
    if (known.has(payee)) continue;
    const seen = byPayee.get(payee);
    if (seen) seen.totalCents += e.amountCents;
    else byPayee.set(payee, { first: e, totalCents: e.amountCents });
  }
  if (!byPayee.has(payeeOf(event)!)) return null;
  let weighted = 0;
  let total = 0;
  for (const { first, totalCents } of byPayee.values()) {
    weighted += fading(event.at - first.at, windowMs, tailMs) * Math.min(1, totalCents / c.fullPaymentCents);
    total += totalCents;
  }
  const score = (weighted / c.minNewPayees) * Math.min(1.25, Math.sqrt(total / c.minTotalCents));
  return graded(score, c.minScore, {
    windowHours: c.windowHours,
    newPayees: byPayee.size,
    weightedPayees: round(weighted, 2),
    totalCents: total,
    payments: [...byPayee.entries()].map(([payee, p]) => ({
      payee: payee.replace(/^(address|tag):/, ""),
      ...brief(p.first),
      totalCents: p.totalCents,
    })),
  });
}

/**
 * Many payments in within a short time, against the customer's usual (a mule collecting): the payments in of the
 * last 48 hours (fading after) against the most of six and four times the customer's usual count for as long over
 * the lookback, times their total against $1,000 (as a square root, only ever weakening).
 */
function incomingBurst(input: MonitoringInput, c: MonitoringConfig["incomingBurst"]): RuleResult {
  const { event } = input;
  if (!isMoneyIn(event)) return null;
  const windowMs = c.windowHours * HOUR;
  const tailMs = c.tailHours * HOUR;
  let weighted = 0;
  let total = 0;
  let count = 0;
  let before = 0;
  let earliest = event.at;
  for (const e of [event, ...input.history]) {
    if (!isMoneyIn(e) || e.at > event.at) continue;
    const w = fading(event.at - e.at, windowMs, tailMs);
    if (w > 0.01) {
      weighted += w;
      total += e.amountCents * w;
      count++;
    }
    before += 1 - w;
    earliest = Math.min(earliest, e.at);
  }
  // The usual: payments in per window over the history before this one (at least the window's own length).
  const spanMs = Math.max(windowMs, event.at - windowMs - Math.max(earliest, input.accountOpenedAt));
  const usual = (before / spanMs) * fadingLength(windowMs, tailMs);
  const needed = Math.max(c.minCount, usual * c.multiplier);
  const score = (weighted / needed) * Math.min(1, Math.sqrt(total / c.minTotalCents));
  return graded(score, c.minScore, {
    windowHours: c.windowHours,
    count,
    weightedCount: round(weighted, 2),
    usualPerWindow: round(usual, 2),
    totalCents: Math.round(total),
  });
}

const RULES: { [R in RuleName]: (input: MonitoringInput, config: MonitoringConfig) => RuleResult } = {
  structuring: (i, c) => structuring(i, c.structuring, c.lookbackDays * DAY),
  velocity: (i, c) => velocity(i, c.velocity),
  first_large_new_address: (i, c) => firstLargeNewAddress(i, c.firstLargeNewAddress),
  rapid_in_out: (i, c) => rapidInOut(i, c.rapidInOut, c.lookbackDays * DAY),
  new_device_new_address: (i, c) => newDeviceNewAddress(i, c.newDeviceNewAddress),
  dormant_reactivated: (i, c) => dormantReactivated(i, c.dormantReactivated),
  many_to_one_address: (i, c) => manyToOneAddress(i, c.manyToOneAddress),
  fan_out: (i, c) => fanOut(i, c.fanOut),
  incoming_burst: (i, c) => incomingBurst(i, c.incomingBurst),
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
    fan_out: "fanOut",
    incoming_burst: "incomingBurst",
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
