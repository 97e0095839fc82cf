import {
  type CustomerDraft,
  DAY,
  HOUR,
  MINUTE,
  type ScenarioChannel,
  startOfDay,
  type World,
} from "@/scripts/monitoring-scenarios/world";

/** The building blocks of an everyday life: when things happen and what ordinary money movements look like. */

/** A moment of the day people move money: 07:00–23:00 (bank time is close enough to UTC for the rules' windows). */
export function daytime(w: World, day: number): number {
  return startOfDay(day) + w.rng.between(7, 23) * HOUR;
}

/** When a schedule runner makes a scheduled transfer: early on its day. */
export function runnerTime(w: World, day: number): number {
  return startOfDay(day) + 9 * HOUR + w.rng.between(0, 40) * MINUTE;
}

/** Times of a Poisson process with `perMonth` events a month in [from, to), each at a daytime moment. */
export function poisson(w: World, from: number, to: number, perMonth: number, fn: (at: number) => void) {
  if (perMonth <= 0) return;
  let t = from + w.rng.gapDays(perMonth / 30) * DAY;
  while (t < to) {
    fn(daytime(w, t));
    t += w.rng.gapDays(perMonth / 30) * DAY;
  }
}

/** Every `periodDays` from a first date within the first period, until `to`. */
export function every(w: World, from: number, to: number, periodDays: number, fn: (day: number) => void) {
  let t = from + w.rng.between(0, periodDays) * DAY;
  while (t < to) {
    fn(t);
    t += periodDays * DAY;
  }
}

/** The same day of each month (1–28) in [from, to). */
export function monthly(from: number, to: number, dayOfMonth: number, fn: (day: number) => void) {
  const start = new Date(from);
  for (let y = start.getUTCFullYear(), m = start.getUTCMonth(); ; m++) {
    const day = Date.UTC(y, m, dayOfMonth);
    if (day >= to) return;
    if (day >= from) fn(day);
  }
}

/** The customer's own addresses they reuse (exchange, landlord, own wallet): `count` of them, made once. */
export function ownAddresses(w: World, c: CustomerDraft, count: number): string[] {
  while (c.addresses.length < count) c.addresses.push(w.address());
  return c.addresses;
}

/** Everyday USDC payments: mostly to addresses they reuse, a share to a new one (a new payee, a one-off seller). */
export function usdcSpending(
  w: World,
  c: CustomerDraft,
  from: number,
  to: number,
  o: { perMonth: number; lo: number; hi: number; newShare: number; reused?: number },
) {
  const reused = ownAddresses(w, c, o.reused ?? w.rng.int(1, 4));
  poisson(w, from, to, o.perMonth, (at) => {
    let address = w.rng.pick(reused);
    if (w.rng.chance(o.newShare)) {
      address = w.address();
      if (w.rng.chance(0.4)) c.addresses.push(address);
    }
    w.transfer(c, at, w.rng.dollars(o.lo, o.hi), address);
  });
}

/** Paying friends by $tag; sometimes paying a request one of them sent. */
export function tagSpending(
  w: World,
  c: CustomerDraft,
  from: number,
  to: number,
  o: { perMonth: number; lo: number; hi: number; requestShare?: number },
) {
  if (c.friends.length === 0) return;
  poisson(w, from, to, o.perMonth, (at) => {
    const channel: ScenarioChannel = w.rng.chance(o.requestShare ?? 0.15) ? "request" : "direct";
    w.tag(c.id, w.rng.pick(c.friends), at, w.rng.dollars(o.lo, o.hi), channel);
  });
}

/** Friends paying this customer by $tag (their share of a dinner, a ticket), some of it paying their requests. */
export function tagReceipts(
  w: World,
  c: CustomerDraft,
  from: number,
  to: number,
  o: { perMonth: number; lo: number; hi: number; requestShare?: number },
) {
  if (c.friends.length === 0) return;
  poisson(w, from, to, o.perMonth, (at) => {
    const channel: ScenarioChannel = w.rng.chance(o.requestShare ?? 0.3) ? "request" : "direct";
    w.tag(w.rng.pick(c.friends), c.id, at, w.rng.dollars(o.lo, o.hi), channel);
  });
}

/** Paydays in [from, to): monthly, twice a month or every two weeks, as credits (or deposits for a USDC payroll). */
export function salary(
  w: World,
  c: CustomerDraft,
  from: number,
  to: number,
  o: { perMonthCents: number; cadence: "monthly" | "semimonthly" | "biweekly"; asDeposit?: boolean },
): number[] {
  const days: number[] = [];
  const pay = (day: number, cents: number) => {
    const at = startOfDay(day) + w.rng.between(4, 12) * HOUR;
    const amount = Math.round(cents * w.rng.between(0.97, 1.04));
    if (o.asDeposit) w.deposit(c, at, amount);
    else w.credit(c, at, amount);
    days.push(at);
  };
  if (o.cadence === "monthly") monthly(from, to, 28, (d) => pay(d, o.perMonthCents));
  else if (o.cadence === "semimonthly") {
    monthly(from, to, 1, (d) => pay(d, o.perMonthCents / 2));
    monthly(from, to, 15, (d) => pay(d, o.perMonthCents / 2));
  } else {
    every(w, from, to, 14, (d) => pay(d, (o.perMonthCents * 12) / 26));
  }
  return days.sort((a, b) => a - b);
}

/** A new phone or laptop now and then (every two to four years), plus a second device soon after opening for some. */
export function devicesOverTime(w: World, c: CustomerDraft, to: number) {
  if (w.rng.chance(0.35)) c.devices.push(c.openedAt + w.rng.between(0.1, 20) * DAY);
  let t = c.openedAt + w.rng.gapDays(1 / 1000) * DAY;
  while (t < to) {
    c.devices.push(t);
    t += w.rng.gapDays(1 / 1000) * DAY;
  }
}
