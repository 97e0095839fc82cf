import { daytime, runnerTime } from "@/scripts/monitoring-scenarios/everyday";
import {
  type CustomerDraft,
  DAY,
  HOUR,
  LIMITS,
  startOfDay,
  type Typology,
  type World,
} from "@/scripts/monitoring-scenarios/world";

/**
 * What a customer showing a typology does in the month measured, on top of their everyday life. Every typology
 * comes plain and in evasion variants that change one thing by 10–20% past the edge a rule of thumb would draw
 * (decision 054: 88% of a limit instead of 90%+, 8 days instead of 7, 78% out instead of 80%+, 49 hours
 * instead of 48, $1,450 instead of $1,500, a $1 keep-alive, one customer or one address fewer). The edges are
 * the typologies' plain forms as a compliance analyst would describe them, not any rule's parameters.
 */
export const TYPOLOGY_FORMS: Record<Typology, { variants: string[]; carriers: string[]; describe: string }> =
  {
    structuring_in: {
      variants: ["plain", "evasion-amount", "evasion-spread"],
      carriers: ["credit", "deposit"],
      describe:
        "money in just under the approval threshold: plain 3–6 credits or deposits at 90–99.5% of it within 7 days; amount: at 80–89%; spread: 3–4 at 90–99.5%, 3.6–4.6 days apart (no 7 days hold three)",
    },
    structuring_out: {
      variants: ["plain", "evasion-amount", "evasion-spread"],
      carriers: ["usdc", "tag", "request", "schedule"],
      describe:
        "money out just under the daily limit, day after day: plain 3–6 payments at 90–99.5% of it on distinct days within 7; amount: at 80–89%; spread: 3–4, 3.6–4.6 days apart",
    },
    velocity: {
      variants: ["plain", "evasion-amount", "evasion-spread"],
      carriers: ["usdc", "tag", "schedule"],
      describe:
        "a burst of money out against the customer's own usual: plain 1.15–1.6 × max($3,000, 4 × their usual week) within 3–7 days; amount: 0.80–0.89 × that edge; spread: 1.0–1.1 × the edge over 8.5–10 days",
    },
    first_large_new_address: {
      variants: ["plain", "evasion-amount", "evasion-split"],
      carriers: ["usdc", "tag", "schedule"],
      describe:
        "a first large payment to someone never paid, from a customer who sends little: plain $1,500–$2,000 at once; amount: $1,200–$1,450; split: $1,600–$2,000 in two payments on consecutive days",
    },
    rapid_in_out: {
      variants: ["plain", "evasion-delay", "evasion-share", "evasion-amount"],
      carriers: ["credit-to-usdc", "deposit-to-usdc"],
      describe:
        "money in then out: plain $1,000–$3,600 in, 85–98% of it out starting 1–30 h later; delay: out starting 49–58 h after the last money in; share: 70–79% out; amount: $800–$950 in",
    },
    pass_through: {
      variants: ["plain", "evasion-delay", "evasion-share", "evasion-amount"],
      carriers: ["tag-to-tag", "tag-to-usdc", "request-to-tag", "request-to-usdc"],
      describe:
        "received by $tag (or by money requests paid) from 1–5 people, then passed on by $tag or USDC: plain $1,000–$2,500 in, 85–98% out starting 1–30 h later; delay: 49–58 h; share: 70–79%; amount: $800–$950 in",
    },
    new_device_new_address: {
      variants: ["plain", "evasion-delay", "evasion-amount"],
      carriers: ["usdc", "tag", "schedule"],
      describe:
        "an established account's new device, then money to someone never paid: plain $400–$2,000 within 40 h of the device; delay: 49–60 h after it; amount: 1–3 payments of $150–$195",
    },
    dormant_reactivated: {
      variants: ["plain", "evasion-gap", "evasion-keepalive", "evasion-amount"],
      carriers: ["usdc", "tag"],
      describe:
        "an account silent for months suddenly moving money: plain 200–320 days silent then $1,000–$3,000 in and 80–95% out, or $600–$2,000 out; gap: 150–170 days silent; keep-alive: $1–$3 every 50–85 days through the silence; amount: events of $400–$490",
    },
    collection: {
      variants: ["plain", "evasion-count", "evasion-spread"],
      carriers: ["usdc"],
      describe:
        "several customers paying one fresh address (a mule's or scam's collection): plain 6–9 customers within 2–10 days; count: 4 customers; spread: 5–6 customers 4.2–4.8 days apart (no 14 days hold five)",
    },
    fan_out: {
      variants: ["plain", "evasion-count", "evasion-spread"],
      carriers: ["usdc", "tag", "request", "schedule"],
      describe:
        "money out to many people never paid in a short time: plain 6–10 within 12–66 h; count: 5; spread: 6–7, 16.5–19 h apart (no 72 h hold six)",
    },
    incoming_burst: {
      variants: ["plain", "evasion-count", "evasion-spread"],
      carriers: ["tag", "request", "deposit"],
      describe:
        "money in from many sources in a short time: plain 8–16 payments within 6–44 h; count: 6–7; spread: 8–10, 8.2–9.5 h apart (no 48 h hold eight)",
    },
  };

const A = LIMITS.approvalThresholdCents;
const D = LIMITS.dailyLimitCents;
const cents = (w: World, lo: number, hi: number) => w.rng.dollars(lo / 100, hi / 100);

/** Where an act sends money: a USDC address, a person's $tag (or paying their money request), a scheduled recipient. */
type Out = "usdc" | "tag" | "request" | "schedule";

function pay(w: World, c: CustomerDraft, at: number, amount: number, out: Out, to: string) {
  if (out === "tag" || out === "request")
    w.tag(c.id, to, at, amount, out === "request" ? "request" : "direct");
  else if (out === "usdc") w.transfer(c, at, amount, to);
  else {
    // A schedule runs on its day's morning (a time already the runner's is kept).
    const morning = startOfDay(at) + 9 * HOUR;
    w.transfer(c, at >= morning && at < morning + HOUR ? at : runnerTime(w, at), amount, to, "schedule");
  }
}

const newPayee = (w: World, out: Out) => (out === "tag" || out === "request" ? w.outsider() : w.address());

/** Money in of the given kind (a $tag or a paid request comes from someone outside the sample). */
function moneyIn(w: World, c: CustomerDraft, at: number, amount: number, kind: string) {
  if (kind === "credit") w.credit(c, at, amount);
  else if (kind === "deposit") w.deposit(c, at, amount);
  else w.tag(w.outsider(), c.id, at, amount, kind === "request" ? "request" : "direct");
}

/** Sends `total` to one payee from `at`, at most the daily limit a day (the next part the next day). */
function sendWithinLimit(w: World, c: CustomerDraft, at: number, total: number, out: Out, to: string) {
  let t = at;
  let left = total;
  while (left > 0) {
    const room = D - 500 * w.rng.int(0, 4);
    const part = Math.min(left, room);
    pay(w, c, t, part, out, to);
    left -= part;
    t = startOfDay(t) + DAY + w.rng.between(7, 12) * HOUR;
  }
}

/** Times `gap` apart starting at `t0`. */
const spaced = (t0: number, n: number, gap: () => number) => {
  const times = [t0];
  for (let i = 1; i < n; i++) times.push(times[i - 1]! + gap());
  return times;
};

/** `n` times within `span` from `t0`, the first at t0 and the last at t0 + span. */
function within(w: World, t0: number, n: number, span: number): number[] {
  const inner = Array.from({ length: Math.max(0, n - 2) }, () => t0 + w.rng.next() * span).sort(
    (a, b) => a - b,
  );
  return n === 1 ? [t0] : [t0, ...inner, t0 + span];
}

/** The customer's money out in the 90 days before `at`, per week (velocity's "usual"). */
function usualWeekOut(c: CustomerDraft, at: number): number {
  let sum = 0;
  for (const d of c.drafts)
    if ((d.kind === "transfer" || d.kind === "tag_out") && d.at >= at - 90 * DAY && d.at < at)
      sum += d.amountCents;
  return sum / (90 / 7);
}

export interface Act {
  typology: Typology;
  variant: string;
  carrier: string;
  /** When the act starts (within the month measured). */
  at: number;
}

export function performAct(w: World, c: CustomerDraft, act: Act) {
  const r = w.rng;
  const { variant, carrier, at: t0 } = act;
  w.everyday = false;
  switch (act.typology) {
    case "structuring_in": {
      const spread = variant === "evasion-spread";
      const n = spread ? r.int(3, 4) : r.int(3, 6);
      const times = spread
        ? spaced(t0, n, () => r.between(3.6, 4.6) * DAY)
        : within(w, t0, n, r.between(2, 6.5) * DAY);
      let total = 0;
      for (const t of times) {
        const amount =
          variant === "evasion-amount" ? cents(w, 0.8 * A, 0.89 * A) : cents(w, 0.9 * A, 0.995 * A);
        total += amount;
        moneyIn(w, c, t, amount, carrier);
      }
      if (r.chance(0.6))
        sendWithinLimit(
          w,
          c,
          times[n - 1]! + r.between(4, 9) * DAY,
          Math.round(total * r.between(0.7, 0.95)),
          "usdc",
          w.address(),
        );
      break;
    }
    case "structuring_out": {
      const out = carrier as Out;
      const spread = variant === "evasion-spread";
      const n = spread ? r.int(3, 4) : r.int(3, 6);
      // A schedule runs on its day's morning: whole days apart, so no 7 days hold three.
      const days = spread
        ? spaced(t0, n, () => (out === "schedule" ? r.int(4, 5) : r.between(3.6, 4.6)) * DAY)
        : r
            .shuffle([0, 1, 2, 3, 4, 5, 6])
            .slice(0, n)
            .sort((a, b) => a - b)
            .map((d) => daytime(w, t0 + d * DAY));
      const payees = [newPayee(w, out), newPayee(w, out)];
      const amounts = days.map(() =>
        variant === "evasion-amount" ? cents(w, 0.8 * D, 0.89 * D) : cents(w, 0.9 * D, 0.995 * D),
      );
      const total = amounts.reduce((s, a) => s + a, 0);
      const funding = r.int(1, 3);
      for (let i = 0; i < funding; i++)
        moneyIn(
          w,
          c,
          t0 - r.between(3, 12) * DAY,
          Math.round((total * 1.05) / funding),
          r.pick(["credit", "deposit"]),
        );
      days.forEach((t, i) => {
        pay(w, c, t, amounts[i]!, out, payees[r.int(0, 1)]!);
      });
      break;
    }
    case "velocity": {
      const out = carrier as Out;
      const edge = Math.max(300_000, 4 * usualWeekOut(c, t0));
      const total = Math.round(
        edge *
          (variant === "evasion-amount"
            ? r.between(0.8, 0.89)
            : variant === "evasion-spread"
              ? r.between(1, 1.1)
              : r.between(1.15, 1.6)),
      );
      const spread = variant === "evasion-spread";
      const days = Math.min(7, Math.max(Math.ceil(total / 180_000), spread ? r.int(5, 8) : r.int(3, 7)));
      const span = r.between(8.5, 10);
      // One payment a day (the daily limit); spread: the same days stretched over 8.5–10 days.
      const dayTimes = spread
        ? spaced(t0, days, () => (span / (days - 1)) * DAY)
        : spaced(daytime(w, t0), days, () => DAY);
      const per = Math.min(Math.round(total / days), D - 100);
      const known = out === "tag" ? c.friends : c.addresses;
      for (const t of dayTimes)
        pay(w, c, t, per, out, known.length > 0 && r.chance(0.5) ? r.pick(known) : newPayee(w, out));
      break;
    }
    case "first_large_new_address": {
      const out = carrier as Out;
      const to = newPayee(w, out);
      moneyIn(w, c, t0 - r.between(3, 20) * DAY, cents(w, 150_000, 220_000), r.pick(["credit", "deposit"]));
      if (variant === "evasion-split") {
        const total = cents(w, 160_000, 200_000);
        const first = Math.round(total * r.between(0.45, 0.55));
        pay(w, c, t0, first, out, to);
        pay(w, c, daytime(w, t0 + DAY), total - first, out, to);
      } else
        pay(
          w,
          c,
          t0,
          variant === "evasion-amount" ? cents(w, 120_000, 145_000) : cents(w, 150_000, 200_000),
          out,
          to,
        );
      break;
    }
    case "rapid_in_out":
    case "pass_through": {
      const [inKind, outKind] = carrier.split("-to-") as [string, string];
      const outVia: Out = outKind === "usdc" ? "usdc" : "tag";
      const small = variant === "evasion-amount";
      const total = small
        ? cents(w, 80_000, 95_000)
        : cents(w, 100_000, act.typology === "pass_through" ? 250_000 : 360_000);
      const n = act.typology === "pass_through" ? r.int(1, 5) : small ? r.int(1, 2) : r.int(1, 3);
      const ins = within(
        w,
        t0,
        n,
        n === 1 ? 0 : r.between(0.5, act.typology === "pass_through" ? 20 : 12) * HOUR,
      );
      let left = total;
      ins.forEach((t, i) => {
        const part = i === n - 1 ? left : Math.round((total / n) * r.between(0.7, 1.3));
        left -= part;
        moneyIn(w, c, t, Math.max(part, 100), inKind);
      });
      const share = variant === "evasion-share" ? r.between(0.7, 0.79) : r.between(0.85, 0.98);
      const start =
        variant === "evasion-delay"
          ? ins[n - 1]! + r.between(49, 58) * HOUR
          : ins[0]! + r.between(1, 30) * HOUR;
      const to =
        outVia === "usdc" && c.addresses.length > 0 && r.chance(0.4)
          ? r.pick(c.addresses)
          : newPayee(w, outVia);
      sendWithinLimit(
        w,
        c,
        Math.max(start, ins[n - 1]! + 10 * 60_000),
        Math.round(total * share),
        outVia,
        to,
      );
      break;
    }
    case "new_device_new_address": {
      const out = carrier as Out;
      const lag = (variant === "evasion-delay" ? r.between(49, 60) : r.between(0.3, 40)) * HOUR;
      // A schedule pays at its runner's time: the device is placed that long before it.
      const first = out === "schedule" ? runnerTime(w, t0 + 3 * DAY) : t0 + lag;
      const device = first - lag;
      c.devices.push(device);
      if (variant === "evasion-amount") {
        const n = r.int(1, 3);
        for (let i = 0; i < n; i++) {
          const at = i === 0 || out === "schedule" ? first : device + r.between(0.3, 40) * HOUR;
          pay(w, c, at, cents(w, 15_000, 19_500), out, newPayee(w, out));
        }
      } else {
        pay(w, c, first, cents(w, 40_000, 200_000), out, newPayee(w, out));
        if (r.chance(0.4))
          pay(w, c, daytime(w, first + DAY), cents(w, 20_000, 150_000), out, newPayee(w, out));
      }
      break;
    }
    case "dormant_reactivated":
      reactivate(w, c, act);
      break;
    case "fan_out": {
      const out = carrier as Out;
      const spread = variant === "evasion-spread";
      const n = variant === "evasion-count" ? 5 : spread ? r.int(6, 7) : r.int(6, 10);
      let times = spread
        ? spaced(t0, n, () => r.between(16.5, 19) * HOUR)
        : within(w, t0, n, r.between(12, 66) * HOUR);
      if (out === "schedule") {
        // Schedules run in the morning: plain within three mornings; spread over five, at most five in any three.
        const days = spread
          ? [0, 0, 1, 2, 3, 4, 4].slice(0, n)
          : times.map(() => r.int(0, 2)).sort((a, b) => a - b);
        times = days.map((d) => t0 + d * DAY);
      }
      const amounts = times.map(() => cents(w, 5_000, 40_000));
      // Within the daily limit: a day's payments are scaled down to fit it.
      const byDay = new Map<number, number>();
      times.forEach((t, i) => {
        byDay.set(startOfDay(t), (byDay.get(startOfDay(t)) ?? 0) + amounts[i]!);
      });
      const fitted = amounts.map(
        (a, i) => Math.round((a * Math.min(1, (D * 0.95) / byDay.get(startOfDay(times[i]!))!)) / 100) * 100,
      );
      moneyIn(
        w,
        c,
        t0 - r.between(3, 8) * DAY,
        Math.round(fitted.reduce((s, a) => s + a, 0) * 1.1),
        r.pick(["credit", "deposit"]),
      );
      times.forEach((t, i) => {
        pay(w, c, t, fitted[i]!, out, newPayee(w, out));
      });
      break;
    }
    case "incoming_burst": {
      const spread = variant === "evasion-spread";
      const n = variant === "evasion-count" ? r.int(6, 7) : spread ? r.int(8, 10) : r.int(8, 16);
      const times = spread
        ? spaced(t0, n, () => r.between(8.2, 9.5) * HOUR)
        : within(w, t0, n, r.between(6, 44) * HOUR);
      let total = 0;
      for (const t of times) {
        const amount = cents(w, 5_000, 50_000);
        total += amount;
        moneyIn(w, c, t, amount, carrier);
      }
      if (r.chance(0.7))
        sendWithinLimit(
          w,
          c,
          times[n - 1]! + r.between(3, 6) * DAY,
          Math.round(total * r.between(0.8, 0.95)),
          "usdc",
          w.address(),
        );
      break;
    }
    case "collection":
      throw new Error("collection is a group's act: collect()");
  }
  w.everyday = true;
}

/** Dormant then active: everyday life stops `gap` days before the act (keep-alives excepted). */
function reactivate(w: World, c: CustomerDraft, act: Act) {
  const r = w.rng;
  const { variant, carrier, at: t0 } = act;
  const gap = (variant === "evasion-gap" ? r.between(150, 170) : r.between(200, 320)) * DAY;
  const silentFrom = t0 - gap;
  for (const d of c.drafts) if (d.at >= silentFrom && d.everyday) d.amountCents = 0;
  // The last everyday payment before the silence, so it lasts exactly `gap` (a quiet life may have stopped earlier).
  const own = c.addresses[0] ?? w.address();
  if (r.chance(0.5)) w.credit(c, silentFrom - r.between(0, 12) * HOUR, r.dollars(20, 300));
  else w.transfer(c, silentFrom - r.between(0, 12) * HOUR, r.dollars(20, 300), own);
  if (variant === "evasion-keepalive") {
    for (let t = silentFrom + r.between(50, 85) * DAY; t < t0 - 5 * DAY; t += r.between(50, 85) * DAY) {
      const amount = 100 * r.int(1, 3);
      const how = r.next();
      if (how < 0.4) w.credit(c, daytime(w, t), amount);
      else if (how < 0.8) w.transfer(c, daytime(w, t), amount, own);
      else w.tag(c.id, w.outsider(), daytime(w, t), amount);
    }
  }
  const out: Out = carrier === "tag" ? "tag" : "usdc";
  const to = newPayee(w, out);
  if (variant === "evasion-amount") {
    moneyIn(w, c, t0, cents(w, 40_000, 49_000), carrier === "tag" ? "tag" : r.pick(["credit", "deposit"]));
    const n = r.int(1, 3);
    for (let i = 0; i < n; i++)
      pay(w, c, daytime(w, t0 + (i + 1) * r.between(0.5, 2) * DAY), cents(w, 40_000, 49_000), out, to);
  } else if (r.chance(0.5)) {
    const total = cents(w, 100_000, 300_000);
    moneyIn(w, c, t0, total, carrier === "tag" ? "tag" : r.pick(["credit", "deposit"]));
    sendWithinLimit(w, c, t0 + r.between(1, 5) * DAY, Math.round(total * r.between(0.8, 0.95)), out, to);
  } else pay(w, c, t0, cents(w, 60_000, 200_000), out, to);
}

/** A collection group: each member pays one fresh address, once or twice, as the variant spaces them. */
export function collect(w: World, members: CustomerDraft[], variant: string, t0: number, address: string) {
  const r = w.rng;
  w.everyday = false;
  const spread = variant === "evasion-spread";
  const firsts = spread
    ? spaced(t0, members.length, () => r.between(4.2, 4.8) * DAY)
    : within(w, t0, members.length, r.between(2, 10) * DAY);
  r.shuffle(firsts);
  members.forEach((m, i) => {
    const at = firsts[i]!;
    const amount = cents(w, 20_000, 180_000);
    if (r.chance(0.5))
      moneyIn(
        w,
        m,
        at - r.between(3, 6) * DAY,
        Math.round(amount * r.between(1, 1.3)),
        r.pick(["credit", "deposit", "tag"]),
      );
    w.transfer(m, at, amount, address);
    if (!spread && r.chance(0.5))
      w.transfer(m, at + r.between(1, 4) * DAY, cents(w, 20_000, 150_000), address);
  });
  w.everyday = true;
}

/** How many days an act takes, so it starts early enough to end inside the month. */
export function actDays(typology: Typology, variant: string): number {
  if (typology === "collection") return variant === "evasion-spread" ? 25 : 15;
  if (typology === "dormant_reactivated") return 8;
  if (variant === "evasion-spread")
    return typology === "velocity"
      ? 12
      : typology === "structuring_in" || typology === "structuring_out"
        ? 16
        : 6;
  if (typology === "structuring_in" || typology === "structuring_out" || typology === "velocity") return 9;
  return 6;
}
