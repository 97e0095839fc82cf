import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const SCHEDULES_KEY = ["/api/schedules"] as const;
export const UPCOMING_RUNS_KEY = ["/api/schedules/upcoming"] as const;

/** GET /api/schedules: running and paused schedules first, then the most recently ended. */
export function findSchedules({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/schedules", {}, { signal });
}

export const schedulesQuery = queryOptions({
  queryKey: SCHEDULES_KEY,
  queryFn: ({ signal }) => findSchedules({ signal }),
});

export function useSchedules() {
  return useQuery(schedulesQuery);
}

/** GET /api/schedules/upcoming: the dashboard's "Coming up", soonest first. */
export function findUpcomingRuns({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/schedules/upcoming", {}, { signal });
}

export function useUpcomingRuns() {
  return useQuery({ queryKey: UPCOMING_RUNS_KEY, queryFn: ({ signal }) => findUpcomingRuns({ signal }) });
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

/**
 * A run's New York calendar day ("2026-12-01") as "Tue, Dec 1, 2026", by hand: read as an instant it would show
 * the day before west of UTC, and Intl's first formatter costs the dashboard its locale data.
 */
export function formatRunDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(year, month - 1, date)).getUTCDay();
  return `${WEEKDAYS[weekday]}, ${MONTHS[month - 1]} ${date}, ${year}`;
}
