import {
  daytime,
  devicesOverTime,
  every,
  monthly,
  ownAddresses,
  poisson,
  runnerTime,
  salary,
  tagReceipts,
  tagSpending,
  usdcSpending,
} from "@/scripts/monitoring-scenarios/everyday";
import {
  type CustomerDraft,
  DAY,
  HISTORY_FROM,
  HOUR,
  LIMITS,
  MEASURED_FROM,
  MEASURED_TO,
  type NormalKind,
  type World,
} from "@/scripts/monitoring-scenarios/world";

/**
 * Normal customers, one life per kind, from the account's opening (or the year's start) to the month's end. Each
 * holds what makes a rule misfire in real life: rent paid the day the salary lands, roommates' shares passed on to
 * the landlord, a trader's deposit sent to their exchange the same day, a car bought from a new address, a
 * business receiving dozens of $tag payments a day, a birthday's gifts, a family sending to one relative abroad.
 */

/** Shared addresses of merchants who take USDC at one published address: many customers pay each, repeatedly. */
export interface SharedAddresses {
  merchants: string[];
}

const from = (c: CustomerDraft) => Math.max(HISTORY_FROM, c.openedAt);

/** Wage earners' common core: pay, rent to a landlord they reuse (right after payday for many), spending. */
function wageLife(
  w: World,
  c: CustomerDraft,
  shared: SharedAddresses,
  o: { perMonthCents: number; rentShare?: number; tagPerMonth?: number; usdcPerMonth?: number },
) {
  const r = w.rng;
  const start = from(c);
  const cadence = r.weighted({ biweekly: 5, semimonthly: 2, monthly: 3 });
  const paydays = salary(w, c, start, MEASURED_TO, {
    perMonthCents: o.perMonthCents,
    cadence,
    asDeposit: r.chance(0.08),
  });
  if (r.chance(o.rentShare ?? 0.5)) {
    const landlord = w.address();
    c.addresses.push(landlord);
    const rent = Math.min(
      LIMITS.dailyLimitCents,
      Math.round((o.perMonthCents * r.between(0.3, 0.6)) / 100) * 100,
    );
    const bySchedule = r.chance(0.4);
    const lag = r.between(0, 2.5);
    // Rent goes out on the first payday of each month (or the schedule's date just after it).
    let lastMonth = -1;
    for (const p of paydays) {
      const month = new Date(p).getUTCMonth();
      if (month === lastMonth) continue;
      lastMonth = month;
      const at = bySchedule
        ? runnerTime(w, p + Math.ceil(lag) * DAY)
        : p + lag * DAY + r.between(1, 10) * HOUR;
      w.transfer(c, at, rent, landlord, bySchedule ? "schedule" : "direct");
    }
  }
  usdcSpending(w, c, start, MEASURED_TO, {
    perMonth: o.usdcPerMonth ?? r.between(1, 6),
    lo: 15,
    hi: r.between(150, 450),
    newShare: 0.08,
  });
  tagSpending(w, c, start, MEASURED_TO, { perMonth: o.tagPerMonth ?? r.between(0.5, 6), lo: 8, hi: 160 });
  tagReceipts(w, c, start, MEASURED_TO, { perMonth: r.between(0, 3), lo: 8, hi: 120 });
  if (r.chance(0.03)) {
    const merchant = r.pick(shared.merchants);
    poisson(w, start, MEASURED_TO, r.between(0.5, 2), (at) =>
      w.transfer(c, at, r.dollars(12, 140), merchant),
    );
  }
  // A larger purchase now and then (furniture, a laptop) from someone new.
  poisson(w, start, MEASURED_TO, 1 / 12, (at) => w.transfer(c, at, r.dollars(300, 1_100), w.address()));
}

export function liveNormal(w: World, c: CustomerDraft, kind: NormalKind, shared: SharedAddresses) {
  const r = w.rng;
  const start = from(c);
  devicesOverTime(w, c, MEASURED_TO);
  switch (kind) {
    case "salaried":
      return wageLife(w, c, shared, { perMonthCents: r.between(2_200, 6_500) * 100 });
    case "gig_worker": {
      // Platform payouts at irregular times, some weeks none, some near the approval threshold (a good week).
      const weekly = r.chance(0.1);
      poisson(w, start, MEASURED_TO, weekly ? 4.3 : r.between(4, 18), (at) => {
        const cents = weekly ? r.dollars(820, 995) : r.dollars(35, 650);
        if (r.chance(0.2)) w.deposit(c, at, cents);
        else w.credit(c, at, cents);
      });
      const landlord = ownAddresses(w, c, 1)[0]!;
      monthly(start, MEASURED_TO, r.int(1, 5), (d) =>
        w.transfer(c, daytime(w, d), r.dollars(700, 1_400), landlord),
      );
      usdcSpending(w, c, start, MEASURED_TO, { perMonth: r.between(2, 8), lo: 10, hi: 300, newShare: 0.1 });
      tagSpending(w, c, start, MEASURED_TO, { perMonth: r.between(1, 8), lo: 5, hi: 120 });
      tagReceipts(w, c, start, MEASURED_TO, { perMonth: r.between(0, 2), lo: 5, hi: 80 });
      return;
    }
    case "student":
      return studentLife(w, c);
    case "rent_splitter":
      // The group's rent and shares are made by rentGroup(); here the member's own pay and spending.
      return wageLife(w, c, shared, { perMonthCents: r.between(1_800, 4_500) * 100, rentShare: 0 });
    case "saver": {
      const paydays = salary(w, c, start, MEASURED_TO, {
        perMonthCents: r.between(3_000, 8_000) * 100,
        cadence: "monthly",
      });
      const savings = ownAddresses(w, c, 1)[0]!;
      const bySchedule = r.chance(0.5);
      const put = r.dollars(300, 1_500);
      for (const p of paydays) {
        w.transfer(
          c,
          bySchedule ? runnerTime(w, p + DAY) : p + r.between(2, 60) * HOUR,
          put,
          savings,
          bySchedule ? "schedule" : "direct",
        );
      }
      // Now and then a larger move to their own wallet.
      poisson(w, start, MEASURED_TO, 1 / 4, (at) => w.transfer(c, at, r.dollars(1_500, 2_000), savings));
      usdcSpending(w, c, start, MEASURED_TO, {
        perMonth: r.between(0.5, 3),
        lo: 10,
        hi: 200,
        newShare: 0.05,
        reused: 2,
      });
      tagSpending(w, c, start, MEASURED_TO, { perMonth: r.between(0, 2), lo: 10, hi: 100 });
      return;
    }
    case "crypto_user":
      return cryptoLife(w, c, shared);
    case "small_business":
      return businessLife(w, c);
    case "quiet":
      return quietLife(w, c);
    case "new_phone": {
      wageLife(w, c, shared, { perMonthCents: r.between(2_000, 6_000) * 100 });
      const phone = MEASURED_FROM + r.between(1, 27) * DAY;
      c.devices.push(phone);
      // A third of them pay someone new within days of the new phone (a contractor, a seller met online).
      if (r.chance(0.35)) {
        const at = phone + r.between(2, 72) * HOUR;
        if (r.chance(0.6)) w.transfer(c, at, r.dollars(40, 600), w.address());
        else w.tag(c.id, w.outsider(), at, r.dollars(20, 300));
      }
      return;
    }
    case "large_one_off": {
      wageLife(w, c, shared, { perMonthCents: r.between(3_000, 8_000) * 100, rentShare: 0.3 });
      // A car or a deposit on a flat, paid to a seller's new address, within the daily limit over a few days.
      const day = HISTORY_FROM + r.between(60, 395) * DAY;
      const total = r.dollars(1_400, 9_000);
      if (r.chance(0.5)) w.credit(c, day - r.between(0.5, 6) * DAY, Math.round(total * r.between(0.6, 1.1)));
      const seller = w.address();
      let left = total;
      for (let d = 0; left > 0; d++) {
        const part = Math.min(left, LIMITS.dailyLimitCents);
        w.transfer(c, daytime(w, day + d * DAY), part, seller);
        left -= part;
      }
      return;
    }
    case "family":
      // The family's allowances, requests and remittances are made by familyGroup(); here the member's own life.
      return wageLife(w, c, shared, {
        perMonthCents: r.between(2_000, 6_000) * 100,
        tagPerMonth: r.between(0.5, 3),
      });
    case "scheduled": {
      wageLife(w, c, shared, { perMonthCents: r.between(2_500, 7_000) * 100, rentShare: 0 });
      const n = r.int(1, 3);
      for (let i = 0; i < n; i++) {
        const to = w.address();
        c.addresses.push(to);
        const cadence = r.weighted({ monthly: 3, biweekly: 1, weekly: 1 });
        const cents = cadence === "monthly" ? r.dollars(300, 1_900) : r.dollars(40, 350);
        const begin = Math.max(start, HISTORY_FROM + r.between(0, 300) * DAY);
        if (cadence === "monthly")
          monthly(begin, MEASURED_TO, r.int(1, 28), (d) =>
            w.transfer(c, runnerTime(w, d), cents, to, "schedule"),
          );
        else
          every(w, begin, MEASURED_TO, cadence === "weekly" ? 7 : 14, (d) =>
            w.transfer(c, runnerTime(w, d), cents, to, "schedule"),
          );
      }
      return;
    }
  }
}

function studentLife(w: World, c: CustomerDraft) {
  const r = w.rng;
  const start = from(c);
  // Money from home (a parent outside the sample) or a campus job.
  const parent = w.outsider();
  if (r.chance(0.6))
    monthly(start, MEASURED_TO, r.int(1, 28), (d) =>
      w.tag(parent, c.id, daytime(w, d), r.dollars(150, 800), r.chance(0.3) ? "request" : "direct"),
    );
  else every(w, start, MEASURED_TO, 14, (d) => w.credit(c, daytime(w, d), r.dollars(250, 700)));
  tagSpending(w, c, start, MEASURED_TO, { perMonth: r.between(6, 30), lo: 4, hi: 45, requestShare: 0.25 });
  tagReceipts(w, c, start, MEASURED_TO, { perMonth: r.between(2, 12), lo: 4, hi: 45, requestShare: 0.4 });
  usdcSpending(w, c, start, MEASURED_TO, { perMonth: r.between(0, 1.5), lo: 10, hi: 150, newShare: 0.2 });
  // A birthday: gifts from a dozen people in a day.
  const birthday = HISTORY_FROM + r.between(0, 395) * DAY;
  const gifts = r.int(3, 12);
  for (let i = 0; i < gifts; i++) {
    const giver = c.friends.length > 0 && r.chance(0.5) ? r.pick(c.friends) : w.outsider();
    w.tag(giver, c.id, birthday + r.between(0, 20) * HOUR, r.dollars(10, 60));
  }
}

function cryptoLife(w: World, c: CustomerDraft, shared: SharedAddresses) {
  const r = w.rng;
  const start = from(c);
  const exchanges = ownAddresses(w, c, r.int(1, 3));
  if (r.chance(0.5))
    salary(w, c, start, MEASURED_TO, { perMonthCents: r.between(2_500, 6_000) * 100, cadence: "biweekly" });
  // Deposits from their own wallet, and payouts to the exchanges they reuse, some the same day (trading).
  const big = r.chance(0.3);
  poisson(w, start, MEASURED_TO, r.between(1, 6), (at) => {
    const cents = big ? r.dollars(500, 2_000) : r.dollars(100, 900);
    w.deposit(c, at, cents);
    if (r.chance(0.3))
      w.transfer(c, at + r.between(0.2, 20) * HOUR, Math.round(cents * r.between(0.5, 1)), r.pick(exchanges));
  });
  poisson(w, start, MEASURED_TO, r.between(1, 6), (at) =>
    w.transfer(c, at, r.dollars(50, big ? 2_000 : 700), r.pick(exchanges)),
  );
  usdcSpending(w, c, start, MEASURED_TO, { perMonth: r.between(0, 3), lo: 10, hi: 400, newShare: 0.25 });
  tagSpending(w, c, start, MEASURED_TO, { perMonth: r.between(0, 3), lo: 10, hi: 100 });
  if (r.chance(0.04)) {
    const merchant = r.pick(shared.merchants);
    poisson(w, start, MEASURED_TO, r.between(0.5, 2), (at) =>
      w.transfer(c, at, r.dollars(12, 200), merchant),
    );
  }
}

function businessLife(w: World, c: CustomerDraft) {
  const r = w.rng;
  const start = from(c);
  const busy = r.between(10, 80);
  // Customers paying by $tag all day (a café, a hairdresser, a food truck), a few in the sample.
  poisson(w, start, MEASURED_TO, busy, (at) => {
    const payer = c.friends.length > 0 && r.chance(0.1) ? r.pick(c.friends) : w.outsider();
    w.tag(payer, c.id, at, r.dollars(6, 180), r.chance(0.1) ? "request" : "direct");
  });
  // Card settlements or invoices paid in, weekly.
  every(w, start, MEASURED_TO, 7, (d) => w.credit(c, daytime(w, d), r.dollars(300, 3_000)));
  // Suppliers paid in USDC, sometimes up to the daily limit.
  const suppliers = ownAddresses(w, c, r.int(2, 5));
  poisson(w, start, MEASURED_TO, r.between(3, 10), (at) =>
    w.transfer(c, at, r.chance(0.15) ? r.dollars(1_700, 2_000) : r.dollars(150, 1_500), r.pick(suppliers)),
  );
  // Staff paid by $tag every two weeks.
  const staff = Array.from({ length: r.int(0, 3) }, () => w.outsider());
  every(w, start, MEASURED_TO, 14, (d) => {
    for (const s of staff) w.tag(c.id, s, daytime(w, d), r.dollars(300, 900));
  });
  usdcSpending(w, c, start, MEASURED_TO, { perMonth: r.between(0, 3), lo: 20, hi: 500, newShare: 0.3 });
}

function quietLife(w: World, c: CustomerDraft) {
  const r = w.rng;
  const start = from(c);
  // A long silence for some, broken by a tax refund or a gift and a little spending.
  const silent = r.chance(0.25);
  const gapFrom = HISTORY_FROM + r.between(0, 200) * DAY;
  const gapTo = gapFrom + r.between(150, 300) * DAY;
  const inGap = (at: number) => silent && at >= gapFrom && at < gapTo;
  const own = ownAddresses(w, c, 1)[0]!;
  poisson(w, start, MEASURED_TO, r.between(0.2, 1.5), (at) => {
    if (inGap(at)) return;
    if (r.chance(0.5)) w.credit(c, at, r.dollars(20, 300));
    else if (r.chance(0.7)) w.transfer(c, at, r.dollars(10, 200), r.chance(0.7) ? own : w.address());
    else w.tag(c.id, w.outsider(), at, r.dollars(5, 80));
  });
  if (silent && gapTo < MEASURED_TO) {
    w.credit(c, daytime(w, gapTo), r.dollars(300, 1_800));
    w.transfer(c, daytime(w, gapTo + r.between(1, 12) * DAY), r.dollars(50, 400), own);
  }
}

/** Roommates: each pays the lease holder their share by $tag (or answers their request), who pays the landlord. */
export function rentGroup(w: World, members: CustomerDraft[]) {
  const r = w.rng;
  const [holder, ...others] = members as [CustomerDraft, ...CustomerDraft[]];
  const landlord = w.address();
  holder.addresses.push(landlord);
  const rent = r.dollars(1_200, 2_000);
  const share = Math.round(rent / members.length);
  const byRequest = r.chance(0.5);
  const start = Math.max(...members.map(from));
  monthly(start, MEASURED_TO, r.int(25, 28), (d) => {
    for (const m of others)
      w.tag(
        m.id,
        holder.id,
        d + r.between(-2, 1) * DAY + r.between(8, 22) * HOUR,
        share,
        byRequest ? "request" : "direct",
      );
    w.transfer(holder, d + r.between(1, 2.5) * DAY, rent, landlord);
    // Utilities: the holder pays, the others pay back their share.
    const bill = r.dollars(80, 260);
    w.transfer(holder, d + r.between(5, 12) * DAY, bill, ownAddresses(w, holder, 2)[1]!);
    for (const m of others)
      w.tag(m.id, holder.id, d + r.between(8, 16) * DAY, Math.round(bill / members.length), "request");
  });
}

/** A family: allowances and requests between parents and children, and some sending to one relative abroad. */
export function familyGroup(w: World, members: CustomerDraft[]) {
  const r = w.rng;
  if (members.length < 2) return;
  const parents = members.slice(0, Math.min(2, members.length - 1));
  const children = members.slice(parents.length);
  const start = Math.max(...members.map(from));
  for (const child of children) {
    const parent = r.pick(parents);
    every(w, start, MEASURED_TO, r.pick([7, 14]), (d) =>
      w.tag(parent.id, child.id, daytime(w, d), r.dollars(20, 150)),
    );
    poisson(w, start, MEASURED_TO, r.between(0.3, 2), (at) =>
      w.tag(parent.id, child.id, at, r.dollars(20, 300), "request"),
    );
    for (const other of children)
      if (other !== child)
        poisson(w, start, MEASURED_TO, 0.5, (at) => w.tag(child.id, other.id, at, r.dollars(5, 60)));
  }
  if (r.chance(0.4)) {
    const relative = w.address();
    for (const m of members) {
      if (!r.chance(0.8)) continue;
      m.addresses.push(relative);
      monthly(start, MEASURED_TO, r.int(1, 28), (d) =>
        w.transfer(m, daytime(w, d), r.dollars(100, 500), relative),
      );
    }
  }
}
