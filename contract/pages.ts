import { z } from "zod";

/** Every admin list pages by keyset: `limit` rows from `cursor` (the last page's nextCursor), newest first. */
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;

export const PAGE_MESSAGES = {
  invalidCursor: "Invalid cursor: use the nextCursor of the previous page",
  invalidLimit: `limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}`,
  invalidStatus: "Unknown status filter",
} as const;

const limit = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.coerce
    .number({ error: PAGE_MESSAGES.invalidLimit })
    .int(PAGE_MESSAGES.invalidLimit)
    .min(1, PAGE_MESSAGES.invalidLimit)
    .max(PAGE_LIMIT_MAX, PAGE_MESSAGES.invalidLimit)
    .default(PAGE_LIMIT_DEFAULT),
);

/** ?cursor=&limit=&q= — q searches case-insensitively (what it covers depends on the list). */
export const pageQuery = z.object({
  cursor: z.string().max(400, PAGE_MESSAGES.invalidCursor).optional(),
  limit,
  q: z.string().max(200, "Search must be at most 200 characters").optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** A list with statuses adds ?status= (one of them, or "all"); `fallback` is what an absent status means. */
export function pageQueryWithStatus<const S extends readonly [string, ...string[]]>(
  statuses: S,
  fallback: S[number] | "all" = "all",
) {
  return pageQuery.extend({
    status: z
      .enum([...statuses, "all"] as [S[number] | "all", ...(S[number] | "all")[]], {
        error: PAGE_MESSAGES.invalidStatus,
      })
      // zod cannot see that `fallback` is one of the enum's members through the generic; it is by its type.
      .default(fallback as never),
  });
}

/** `{ items, nextCursor }`: nextCursor is null on the last page. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
