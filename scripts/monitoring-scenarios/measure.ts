import type { Scenarios } from "@/scripts/monitoring-scenarios/generate";
import { TYPOLOGY_FORMS } from "@/scripts/monitoring-scenarios/typologies";
import {
  DAY,
  NORMAL_KINDS,
  type ScenarioEvent,
  type ScenarioLabel,
  TYPOLOGIES,
} from "@/scripts/monitoring-scenarios/world";
import {
  evaluateRules,
  type MonitoringConfig,
  type MonitoringInput,
} from "@/server/features/monitoring/rules";

/**
 * The production rules (`evaluateRules`) over the frozen scenarios, each event seeing what the live path would
 * (load-monitoring-input.ts): the customer's earlier events within the lookback, their last activity before it,
 * the account's opening, the devices first seen by then, other customers who paid the same address within the
 * many-to-one window (the 20 latest and the count), and the alerts this run already raised on the customer within
 * the longest cooldown. Shared by `npm run bench:compliance` and server/features/monitoring/scenarios.test.ts.
 */

/** What the rules are given: every event ("all", the goal), or what today's live path feeds them ("today":
 * no $tag payment is judged; a payment received by $tag is in the history as the credit the ledger writes). */
export type Feed = "all" | "today";

/** The live path lists this many of the other customers paying an address, with the count of all. */
const SENDERS_LISTED = 20;

export interface Recall {
  key: string;
  /** Customers (collection: groups) labelled so. */
  total: number;
  found: number;
  recall: number;
  /** Rule → customers (or groups) of this row it alerted on (normal rows: alerts). */
  rules: Record<string, number>;
}

export interface NormalRow {
  kind: string;
  customers: number;
  alerts: number;
  alertedCustomers: number;
  alertsPer1000: number;
  rules: Record<string, number>;
}

export interface Measurement {
  feed: Feed;
  customers: number;
  evaluatedEvents: number;
  measuredEvents: number;
  evaluateMs: number;
  eventsPerSecond: number;
  /** One per typology (collection counted by group: a group is found when any member is alerted). */
  typologies: Recall[];
  /** "<typology>/<variant>". */
  variants: Recall[];
  /** "<typology>/<carrier>". */
  carriers: Recall[];
  /** Collection's members one by one (a group's first payer cannot be told from a merchant's customer). */
  collectionMembers: Recall;
  normal: NormalRow;
  normalKinds: NormalRow[];
}

export type Alerted = { rule: string; at: number }[];

export function measureScenarios(
  s: Scenarios,
  config: MonitoringConfig,
  options: { feed?: Feed } = {},
): Measurement {
  const feed = options.feed ?? "all";
  const measured = new Map<string, Alerted>(s.customers.map((c) => [c.id, []]));
  let evaluatedEvents = 0;
  let measuredEvents = 0;
  const started = performance.now();
  for (const { customer, input, month, raised } of judgedEvents(s, config, feed)) {
    evaluatedEvents++;
    if (month) measuredEvents++;
    // The scenarios' event is the rules' MoneyEvent extended by $tag payments and channels (decision 054).
    for (const alert of evaluateRules(input as MonitoringInput, config)) {
      const a = { rule: alert.rule, at: input.event.at };
      raised.push(a);
      if (month) measured.get(customer)!.push(a);
    }
  }
  const evaluateMs = performance.now() - started;
  return {
    feed,
    customers: s.customers.length,
    evaluatedEvents,
    measuredEvents,
    evaluateMs,
    eventsPerSecond: (evaluatedEvents / evaluateMs) * 1000,
    ...recalls(s, measured),
    ...normals(s, measured),
  };
}

/** What the rules see for one event: MonitoringInput, its events the scenarios' (with $tag kinds and channels). */
export interface ScenarioInput {
  event: ScenarioEvent;
  history: ScenarioEvent[];
  activityBeforeLookbackAt: number | null;
  accountOpenedAt: number;
  deviceFirstSeen: number[];
  addressSenders: { customerId: string; at: number }[];
  addressSenderCount: number;
  recentAlerts: { rule: string; at: number }[];
}

/**
 * Every event the rules judge, customer by customer, with its input as the live path builds it: from the longest
 * cooldown before the month (an alert raised then still holds its cooldown in it) to the month's end. The caller
 * pushes the alerts it raises on an event into `raised` before asking for the next one: the customer's later
 * events see them as their recent alerts.
 */
export function* judgedEvents(
  s: Scenarios,
  config: MonitoringConfig,
  feed: Feed = "all",
): Generator<{ customer: string; input: ScenarioInput; month: boolean; raised: Alerted }> {
  const lookback = config.lookbackDays * DAY;
  const senderWindow = manyToOneWindowDays(config) * DAY;
  const cooldown = longestCooldownDays(config) * DAY;
  const evaluateFrom = s.measuredFrom - cooldown;
  const fed = s.customers.map((c) => feedOf(c.events, feed));
  const senders = addressIndex(s, fed);
  for (const [n, c] of s.customers.entries()) {
    const { events, judged } = fed[n]!;
    const raised: Alerted = [];
    let first = 0;
    for (const [i, event] of events.entries()) {
      if (!judged[i] || event.at < evaluateFrom || event.at >= s.measuredTo) continue;
      while (events[first]!.at < event.at - lookback) first++;
      const others = event.address
        ? sendersOf(senders.get(event.address)!, c.id, event.at, senderWindow)
        : [];
      const input: ScenarioInput = {
        event,
        history: events.slice(first, i),
        activityBeforeLookbackAt: first > 0 ? events[first - 1]!.at : null,
        accountOpenedAt: c.accountOpenedAt,
        deviceFirstSeen: c.devices.filter((d) => d <= event.at),
        addressSenders: others.slice(0, SENDERS_LISTED),
        addressSenderCount: others.length,
        recentAlerts: raised.filter((a) => a.at >= event.at - cooldown),
      };
      yield { customer: c.id, input, month: event.at >= s.measuredFrom, raised };
    }
  }
}

function feedOf(events: ScenarioEvent[], feed: Feed): { events: ScenarioEvent[]; judged: boolean[] } {
  if (feed === "all") return { events, judged: events.map(() => true) };
  const kept = events
    .filter((e) => e.kind !== "tag_out")
    .map((e) =>
      e.kind === "tag_in"
        ? { id: e.id, kind: "credit" as const, at: e.at, amountCents: e.amountCents, address: null }
        : e,
    );
  return { events: kept, judged: events.filter((e) => e.kind !== "tag_out").map((e) => e.kind !== "tag_in") };
}

/** Per address, every customer's payments to it in time order. */
function addressIndex(s: Scenarios, fed: { events: ScenarioEvent[] }[]) {
  const index = new Map<string, { at: number; customerId: string }[]>();
  s.customers.forEach((c, n) => {
    for (const e of fed[n]!.events) {
      if (!e.address) continue;
      const list = index.get(e.address) ?? [];
      if (list.length === 0) index.set(e.address, list);
      list.push({ at: e.at, customerId: c.id });
    }
  });
  for (const list of index.values()) list.sort((a, b) => a.at - b.at);
  return index;
}

/** Other customers who paid the address in (at − window, at], each with their latest payment, newest first. */
function sendersOf(list: { at: number; customerId: string }[], self: string, at: number, window: number) {
  let hi = list.length;
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at <= at) lo = mid + 1;
    else hi = mid;
  }
  const seen = new Map<string, number>();
  for (let i = lo - 1; i >= 0 && list[i]!.at > at - window; i--) {
    const p = list[i]!;
    if (p.customerId !== self && !seen.has(p.customerId)) seen.set(p.customerId, p.at);
  }
  return [...seen].map(([customerId, when]) => ({ customerId, at: when }));
}

/** The many-to-one rule's window (the live path reads other customers' payments over it), or the lookback. */
function manyToOneWindowDays(config: MonitoringConfig): number {
  const rule = (config as unknown as Record<string, { windowDays?: unknown } | undefined>).manyToOneAddress;
  return typeof rule?.windowDays === "number" ? rule.windowDays : config.lookbackDays;
}

/** The longest of the rules' cooldowns (the live path reads the customer's alerts that far back). */
function longestCooldownDays(config: MonitoringConfig): number {
  let longest = 0;
  for (const value of Object.values(config))
    if (
      value &&
      typeof value === "object" &&
      typeof (value as { cooldownDays?: unknown }).cooldownDays === "number"
    )
      longest = Math.max(longest, (value as { cooldownDays: number }).cooldownDays);
  return longest;
}

function row(key: string, units: Alerted[]): Recall {
  const rules: Record<string, number> = {};
  let found = 0;
  for (const alerts of units) {
    if (alerts.length > 0) found++;
    for (const rule of new Set(alerts.map((a) => a.rule))) rules[rule] = (rules[rule] ?? 0) + 1;
  }
  return { key, total: units.length, found, recall: units.length ? found / units.length : 0, rules };
}

type TypologyLabel = Extract<ScenarioLabel, { type: "typology" }>;

function recalls(s: Scenarios, measured: Map<string, Alerted>) {
  // A unit is a customer, or a collection group (its members' alerts together).
  const units: { label: TypologyLabel; alerts: Alerted }[] = [];
  const groups = new Map<string, { label: TypologyLabel; alerts: Alerted }>();
  const members: Alerted[] = [];
  for (const c of s.customers) {
    if (c.label.type !== "typology") continue;
    const alerts = measured.get(c.id)!;
    if (c.label.typology !== "collection") {
      units.push({ label: c.label, alerts });
      continue;
    }
    members.push(alerts);
    const group = groups.get(c.label.group!);
    if (group) group.alerts.push(...alerts);
    else groups.set(c.label.group!, { label: c.label, alerts: [...alerts] });
  }
  units.push(...groups.values());
  const by = (key: (l: TypologyLabel) => string, keys: string[]) =>
    keys
      .map((k) =>
        row(
          k,
          units.filter((u) => key(u.label) === k).map((u) => u.alerts),
        ),
      )
      .filter((r) => r.total > 0);
  return {
    typologies: by((l) => l.typology, [...TYPOLOGIES]),
    variants: by(
      (l) => `${l.typology}/${l.variant}`,
      TYPOLOGIES.flatMap((t) => TYPOLOGY_FORMS[t].variants.map((v) => `${t}/${v}`)),
    ),
    carriers: by(
      (l) => `${l.typology}/${l.carrier}`,
      TYPOLOGIES.flatMap((t) => TYPOLOGY_FORMS[t].carriers.map((v) => `${t}/${v}`)),
    ),
    collectionMembers: row("collection (members)", members),
  };
}

function normalRow(kind: string, alerts: Alerted[]): NormalRow {
  const r = row(kind, alerts);
  const total = alerts.reduce((s, a) => s + a.length, 0);
  // Alerts per rule (not customers): what compliance would have to read.
  const rules: Record<string, number> = {};
  for (const a of alerts.flat()) rules[a.rule] = (rules[a.rule] ?? 0) + 1;
  return {
    kind,
    customers: alerts.length,
    alerts: total,
    alertedCustomers: r.found,
    // The month measured is one month: alerts per 1,000 customers a month.
    alertsPer1000: alerts.length ? (total / alerts.length) * 1000 : 0,
    rules,
  };
}

function normals(s: Scenarios, measured: Map<string, Alerted>) {
  const byKind = new Map<string, Alerted[]>();
  for (const c of s.customers) {
    if (c.label.type !== "normal") continue;
    const list = byKind.get(c.label.kind) ?? [];
    if (list.length === 0) byKind.set(c.label.kind, list);
    list.push(measured.get(c.id)!);
  }
  return {
    normal: normalRow("all normal customers", [...byKind.values()].flat()),
    normalKinds: NORMAL_KINDS.filter((k) => byKind.has(k)).map((k) => normalRow(k, byKind.get(k)!)),
  };
}
