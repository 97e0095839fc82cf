import { describe, expect, it } from "vitest";
import {
  addMonthsClamped,
  firstRunIndexFrom,
  isDue,
  runDate,
  runDateWithin,
  upcomingRunDates,
} from "@/server/features/schedules/schedule-dates";
import { limitDayOf } from "@/server/features/transfers/limit-day";

describe("schedule run dates", () => {
  it("runs a one-off once, on its date", () => {
    expect(runDate("2026-12-01", "once", 0)).toBe("2026-12-01");
    expect(runDate("2026-12-01", "once", 1)).toBeNull();
  });

  it("runs weekly and every two weeks on the same weekday, across the turn of the year", () => {
    expect(upcomingRunDates({ startOn: "2026-12-24", cadence: "weekly", endOn: null }, 0, 3)).toEqual([
      "2026-12-24",
      "2026-12-31",
      "2027-01-07",
    ]);
    expect(
      upcomingRunDates({ startOn: "2026-12-24", cadence: "every_two_weeks", endOn: null }, 0, 3),
    ).toEqual(["2026-12-24", "2027-01-07", "2027-01-21"]);
  });

  it("runs the 31st on the last day of shorter months and goes back to the 31st after them", () => {
    const dates = upcomingRunDates({ startOn: "2027-01-31", cadence: "monthly", endOn: null }, 0, 5);
    expect(dates).toEqual(["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31"]);
  });

  it("runs January 31st on February 29th in a leap year", () => {
    expect(addMonthsClamped("2028-01-31", 1)).toBe("2028-02-29");
    expect(runDate("2028-01-30", "monthly", 1)).toBe("2028-02-29");
    expect(runDate("2028-01-29", "monthly", 1)).toBe("2028-02-29");
    expect(runDate("2027-01-29", "monthly", 1)).toBe("2027-02-28");
  });

  it("keeps a monthly schedule on the 29th of February's month across years", () => {
    expect(upcomingRunDates({ startOn: "2028-02-29", cadence: "monthly", endOn: null }, 11, 2)).toEqual([
      "2029-01-29",
      "2029-02-28",
    ]);
  });

  it("stops at the end date, which itself may have a run", () => {
    const schedule = { startOn: "2026-12-01", cadence: "weekly" as const, endOn: "2026-12-15" };
    expect(upcomingRunDates(schedule, 0, 10)).toEqual(["2026-12-01", "2026-12-08", "2026-12-15"]);
    expect(runDateWithin(schedule, 3)).toBeNull();
    expect(upcomingRunDates({ ...schedule, endOn: "2026-12-14" }, 0, 10)).toEqual([
      "2026-12-01",
      "2026-12-08",
    ]);
  });

  it("finds the first run on or after a day, for a resumed schedule", () => {
    const weekly = { startOn: "2026-12-01", cadence: "weekly" as const, endOn: null };
    expect(firstRunIndexFrom(weekly, "2026-11-01")).toBe(0);
    expect(firstRunIndexFrom(weekly, "2026-12-01")).toBe(0);
    expect(firstRunIndexFrom(weekly, "2026-12-02")).toBe(1);
    expect(firstRunIndexFrom(weekly, "2026-12-08")).toBe(1);
    const monthly = { startOn: "2027-01-31", cadence: "monthly" as const, endOn: null };
    expect(runDate(monthly.startOn, "monthly", firstRunIndexFrom(monthly, "2027-03-01"))).toBe("2027-03-31");
    expect(runDate(monthly.startOn, "monthly", firstRunIndexFrom(monthly, "2027-02-28"))).toBe("2027-02-28");
    expect(firstRunIndexFrom({ startOn: "2026-12-01", cadence: "once", endOn: null }, "2026-12-02")).toBe(1);
  });
});

describe("when a run is due, in New York time", () => {
  it("is due from New York's midnight, not UTC's", () => {
    // 2026-12-01 04:59 UTC is still November 30th in New York (EST, UTC-5).
    expect(isDue("2026-12-01", limitDayOf(new Date("2026-12-01T04:59:59Z")))).toBe(false);
    expect(isDue("2026-12-01", limitDayOf(new Date("2026-12-01T05:00:00Z")))).toBe(true);
  });

  it("is due from midnight on the day the clocks go forward (2027-03-14, 23 hours long)", () => {
    expect(limitDayOf(new Date("2027-03-14T04:59:59Z"))).toBe("2027-03-13");
    expect(limitDayOf(new Date("2027-03-14T05:00:00Z"))).toBe("2027-03-14");
    // The next midnight is EDT (UTC-4): 23 hours later, not 24.
    expect(limitDayOf(new Date("2027-03-15T03:59:59Z"))).toBe("2027-03-14");
    expect(limitDayOf(new Date("2027-03-15T04:00:00Z"))).toBe("2027-03-15");
  });

  it("counts the repeated hour of the day the clocks go back (2026-11-01, 25 hours long) as one day", () => {
    // 01:30 happens twice in New York; both are November 1st, so the day's run (keyed by the date) runs once.
    expect(limitDayOf(new Date("2026-11-01T05:30:00Z"))).toBe("2026-11-01");
    expect(limitDayOf(new Date("2026-11-01T06:30:00Z"))).toBe("2026-11-01");
    expect(limitDayOf(new Date("2026-11-02T04:59:59Z"))).toBe("2026-11-01");
    expect(limitDayOf(new Date("2026-11-02T05:00:00Z"))).toBe("2026-11-02");
  });

  it("keeps a weekly schedule on its weekday across both clock changes", () => {
    const dates = upcomingRunDates({ startOn: "2026-10-25", cadence: "weekly", endOn: null }, 0, 3);
    expect(dates).toEqual(["2026-10-25", "2026-11-01", "2026-11-08"]);
    const spring = upcomingRunDates({ startOn: "2027-03-07", cadence: "weekly", endOn: null }, 0, 3);
    expect(spring).toEqual(["2027-03-07", "2027-03-14", "2027-03-21"]);
    for (const day of [...dates, ...spring]) expect(new Date(`${day}T12:00:00Z`).getUTCDay()).toBe(0);
  });
});
