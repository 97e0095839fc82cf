import { DEFAULT_APPROVAL_THRESHOLD_CENTS } from "@/contract/approvals";
import { DAILY_LIMIT_CENTS } from "@/contract/transfers";
import type { Random } from "@/scripts/monitoring-scenarios/random";

/**
 * The scenarios' shapes and the world that builds them. Written apart from the monitoring rules
 * (decision 054): it knows the product (limits, $tag payments, money requests, schedules), not the rules'
 * thresholds. The event is the shape the rules take (MoneyEvent, extended for $tag payments and channels);
 * TypeScript's structural typing connects the two.
 */
export type ScenarioEventKind = "credit" | "deposit" | "transfer" | "tag_out" | "tag_in";
export type ScenarioChannel = "direct" | "schedule" | "request";

export interface ScenarioEvent {
  id: string;
  kind: ScenarioEventKind;
  /** Epoch milliseconds. */
  at: number;
  amountCents: number;
  /** The USDC address a transfer goes to (lowercase); null otherwise. */
  address: string | null;
  /** The other customer of a $tag payment (their id); null otherwise. */
  counterparty?: string | null;
  /** How a transfer or a $tag payment was made: by hand, by a schedule, or paying a money request. */
  channel?: ScenarioChannel;
}

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

/** A year of history, then the month measured. */
export const HISTORY_FROM = Date.UTC(2025, 9, 1);
export const MEASURED_FROM = HISTORY_FROM + 365 * DAY;
export const MEASURED_TO = MEASURED_FROM + 30 * DAY;

/** The product's limits (contract/): money in above the approval threshold needs a second person; money out
 * (USDC transfers, $tag payments, paid requests) shares one daily limit. */
export const LIMITS = {
  approvalThresholdCents: DEFAULT_APPROVAL_THRESHOLD_CENTS,
  dailyLimitCents: DAILY_LIMIT_CENTS,
} as const;

export const NORMAL_KINDS = [
  "salaried",
  "gig_worker",
  "student",
  "rent_splitter",
  "saver",
  "crypto_user",
  "small_business",
  "quiet",
  "new_phone",
  "large_one_off",
  "family",
  "scheduled",
] as const;
export type NormalKind = (typeof NORMAL_KINDS)[number];

export const TYPOLOGIES = [
  "structuring_in",
  "structuring_out",
  "velocity",
  "first_large_new_address",
  "rapid_in_out",
  "pass_through",
  "new_device_new_address",
  "dormant_reactivated",
  "collection",
  "fan_out",
  "incoming_burst",
] as const;
export type Typology = (typeof TYPOLOGIES)[number];

export type ScenarioLabel =
  | { type: "normal"; kind: NormalKind }
  | {
      type: "typology";
      typology: Typology;
      /** "plain", or "evasion-<what was changed by 10–20%>". */
      variant: string;
      /** What carried the money: usdc, tag, request, schedule, credit, deposit, or "a-to-b" for in then out. */
      carrier: string;
      /** Collection: the group (its address) the customer belongs to. */
      group?: string;
    };

export interface ScenarioCustomer {
  id: string;
  label: ScenarioLabel;
  accountOpenedAt: number;
  /** When each of the customer's devices first signed in. */
  devices: number[];
  /** In time order. */
  events: ScenarioEvent[];
}

interface Draft {
  kind: ScenarioEventKind;
  at: number;
  amountCents: number;
  address: string | null;
  counterparty: string | null;
  channel: ScenarioChannel | undefined;
  /** The two sides of one $tag payment between two customers of the sample share it. */
  pair: number;
  /** A customer's everyday life may move a payment the daily limit refuses; a typology's acts are kept. */
  everyday: boolean;
}

export class CustomerDraft {
  readonly drafts: Draft[] = [];
  readonly devices: number[] = [];
  /** The customer's own addresses they pay again and again (their exchange, their landlord, their own wallet). */
  readonly addresses: string[] = [];
  /** People they pay by $tag (ids of customers in the sample or outside it). */
  readonly friends: string[] = [];
  constructor(
    readonly id: string,
    public label: ScenarioLabel,
    public openedAt: number,
  ) {}
}

export const startOfDay = (t: number) => Math.floor(t / DAY) * DAY;

export class World {
  readonly customers: CustomerDraft[] = [];
  private readonly byId = new Map<string, CustomerDraft>();
  private pairs = 0;
  /** Every everyday act is marked so (the daily limit may move it); typology acts set this false. */
  everyday = true;

  constructor(readonly rng: Random) {}

  add(label: ScenarioLabel, openedAt: number): CustomerDraft {
    const c = new CustomerDraft(`c${String(this.customers.length + 1).padStart(5, "0")}`, label, openedAt);
    this.customers.push(c);
    this.byId.set(c.id, c);
    c.devices.push(openedAt);
    return c;
  }

  get(id: string): CustomerDraft | undefined {
    return this.byId.get(id);
  }

  address(): string {
    return `0x${this.rng.hex(40)}`;
  }

  /** A customer of the bank outside the sample measured. */
  outsider(): string {
    return `out-${this.rng.hex(12)}`;
  }

  private push(c: CustomerDraft, d: Omit<Draft, "everyday" | "pair"> & { pair?: number }) {
    if (d.amountCents <= 0) return;
    c.drafts.push({ ...d, pair: d.pair ?? 0, everyday: this.everyday });
  }

  credit(c: CustomerDraft, at: number, cents: number) {
    this.push(c, {
      kind: "credit",
      at,
      amountCents: cents,
      address: null,
      counterparty: null,
      channel: undefined,
    });
  }

  deposit(c: CustomerDraft, at: number, cents: number) {
    this.push(c, {
      kind: "deposit",
      at,
      amountCents: cents,
      address: null,
      counterparty: null,
      channel: undefined,
    });
  }

  transfer(
    c: CustomerDraft,
    at: number,
    cents: number,
    address: string,
    channel: ScenarioChannel = "direct",
  ) {
    this.push(c, { kind: "transfer", at, amountCents: cents, address, counterparty: null, channel });
  }

  /** A $tag payment (`request`: paying a money request the payee sent); either side may be outside the sample. */
  tag(from: string, to: string, at: number, cents: number, channel: ScenarioChannel = "direct") {
    const pair = ++this.pairs;
    const payer = this.byId.get(from);
    const payee = this.byId.get(to);
    if (payer)
      this.push(payer, {
        kind: "tag_out",
        at,
        amountCents: cents,
        address: null,
        counterparty: to,
        channel,
        pair,
      });
    if (payee)
      this.push(payee, {
        kind: "tag_in",
        at,
        amountCents: cents,
        address: null,
        counterparty: from,
        channel,
        pair,
      });
  }

  /**
   * The customers as the bank would have recorded them: events inside the year and the month and after the account
   * opened, money out within the daily limit (an everyday payment the limit refuses is dropped, both sides of a
   * $tag payment with it: the bank refuses it before it exists), in time order, with ids.
   */
  finish(): ScenarioCustomer[] {
    const refused = new Set<number>();
    // A $tag payment to or from a customer whose account was not open yet never happened, on either side.
    for (const c of this.customers)
      for (const d of c.drafts) if (d.pair && !inRange(c, d)) refused.add(d.pair);
    for (const c of this.customers) {
      const outByDay = new Map<number, number>();
      const outs = c.drafts
        .filter(
          (d) =>
            (d.kind === "transfer" || d.kind === "tag_out") &&
            inRange(c, d) &&
            !(d.pair && refused.has(d.pair)),
        )
        .sort((a, b) => Number(a.everyday) - Number(b.everyday) || a.at - b.at);
      for (const d of outs) {
        const day = startOfDay(d.at);
        const sum = (outByDay.get(day) ?? 0) + d.amountCents;
        if (sum > LIMITS.dailyLimitCents && d.everyday) {
          if (d.pair) refused.add(d.pair);
          d.amountCents = 0;
          continue;
        }
        outByDay.set(day, sum);
      }
    }
    return this.customers.map((c) => {
      const kept = c.drafts
        .filter((d) => d.amountCents > 0 && !(d.pair && refused.has(d.pair)) && inRange(c, d))
        .sort((a, b) => a.at - b.at || a.kind.localeCompare(b.kind) || a.amountCents - b.amountCents);
      return {
        id: c.id,
        label: c.label,
        accountOpenedAt: Math.round(c.openedAt),
        devices: c.devices.map(Math.round).sort((a, b) => a - b),
        events: kept.map((d, n) => ({
          id: `${c.id}-${n + 1}`,
          kind: d.kind,
          at: Math.round(d.at),
          amountCents: Math.round(d.amountCents),
          address: d.address,
          ...(d.kind === "tag_in" || d.kind === "tag_out" ? { counterparty: d.counterparty } : {}),
          ...(d.channel ? { channel: d.channel } : {}),
        })),
      };
    });
  }
}

function inRange(c: CustomerDraft, d: Draft): boolean {
  return d.at >= Math.max(HISTORY_FROM, c.openedAt) && d.at < MEASURED_TO;
}
