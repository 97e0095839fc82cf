/**
 * Dates of birth as evidence, not a veto (decision 052). A listed date is kept as a string in
 * sanctions_entries.birth_dates (jsonb), in one of these forms:
 *
 * - `YYYY-MM-DD` a day, `YYYY-MM` a month, `YYYY` a year (the forms lists loaded before this decision hold:
 *   their circa dates were stored as the year and their ranges as one entry per year, which read the same here);
 * - `~YYYY` (or `~YYYY-MM-DD`) circa: about two years either side;
 * - `FROM..TO`, each side one of the three plain forms: a range ("01 Jan 1961 to 31 Dec 1962", "1961 to 1962").
 */

/** What the dates of birth say: equal, near (swap, a year off, within a range or circa), off, far, unknown. */
export type DobVerdict = "exact" | "near" | "off" | "far" | "unknown";

/** What each verdict adds to a name's score. "far" is enough to keep an exact name below the default threshold. */
export const DOB_ADJUSTMENT: Record<DobVerdict, number> = {
  exact: 0.05,
  near: 0,
  off: -0.15,
  far: -0.25,
  unknown: 0,
};

/** How many years either side a circa date stands for. */
const CIRCA_YEARS = 2;
/** From this many years away from every listed date, the dates are far apart. */
const FAR_YEARS = 5;

interface ListedDate {
  /** The first and last year the date allows. */
  from: number;
  to: number;
  /** The exact day (YYYY-MM-DD) or month (YYYY-MM) when the list gives one, for an exact or swapped match. */
  day: string | null;
  month: string | null;
  /** A circa date or a range: consistent at best "near". */
  approximate: boolean;
}

const yearOf = (text: string) => Number(text.slice(0, 4));

function readListedDate(raw: string): ListedDate | null {
  const text = raw.trim();
  if (text.includes("..")) {
    const [a, b] = text.split("..");
    if (!a || !b || !/^\d{4}/.test(a) || !/^\d{4}/.test(b)) return null;
    return { from: yearOf(a), to: yearOf(b), day: null, month: null, approximate: true };
  }
  if (text.startsWith("~")) {
    const y = yearOf(text.slice(1));
    if (!Number.isFinite(y)) return null;
    return { from: y - CIRCA_YEARS, to: y + CIRCA_YEARS, day: null, month: null, approximate: true };
  }
  if (!/^\d{4}(-\d{2}(-\d{2})?)?$/.test(text)) return null;
  const y = yearOf(text);
  return {
    from: y,
    to: y,
    day: text.length === 10 ? text : null,
    month: text.length >= 7 ? text.slice(0, 7) : null,
    approximate: false,
  };
}

const RANK: Record<DobVerdict, number> = { exact: 4, near: 3, off: 2, far: 1, unknown: 0 };

/**
 * What a screened person's date of birth (`YYYY-MM-DD`) says against the listed ones: the best of the dates
 * (a listed person's alternative dates are alternatives). No date on either side: unknown.
 */
export function compareBirthDates(
  customer: string | null | undefined,
  listed: readonly string[],
): DobVerdict {
  if (!customer || !/^\d{4}-\d{2}-\d{2}$/.test(customer)) return "unknown";
  const year = yearOf(customer);
  const swapped = `${customer.slice(0, 4)}-${customer.slice(8, 10)}-${customer.slice(5, 7)}`;
  let best: DobVerdict = "unknown";
  for (const raw of listed) {
    const date = readListedDate(raw);
    if (!date) continue;
    const away = year < date.from ? date.from - year : year > date.to ? year - date.to : 0;
    let verdict: DobVerdict;
    if (!date.approximate && away === 0) {
      if (date.day) verdict = date.day === customer ? "exact" : "near";
      else if (date.month) verdict = date.month === customer.slice(0, 7) ? "exact" : "near";
      else verdict = "exact";
    } else if (date.day && date.day === swapped) verdict = "near";
    else if (away <= 1) verdict = "near";
    else if (away < FAR_YEARS) verdict = "off";
    else verdict = "far";
    if (RANK[verdict] > RANK[best]) best = verdict;
  }
  return best;
}
