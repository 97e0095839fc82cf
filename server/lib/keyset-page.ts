import { type AnyColumn, desc, ilike, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { PAGE_MESSAGES, type Page } from "@/contract/pages";
import type { DbOrTx } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";

// The one keyset-paging helper every admin list uses. A cursor is base64url(JSON) of the last row's sort key,
// opaque to clients; each list pages newest first on an index over its sort key, so a page costs one index
// range scan however deep it is, and nothing binds one parameter per row.

const MICROS_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DIGITS = /^\d{1,18}$/;

export function encodeCursor(parts: string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

/** A MICROS_ISO text naming an instant that exists (no month 13, no February 30). */
function isRealInstant(text: string): boolean {
  const date = new Date(`${text.slice(0, 23)}Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 19) === text.slice(0, 19);
}

/** The cursor's parts, each checked against its shape; anything else (forged, truncated, garbage) → 400. */
export function decodeCursor(cursor: string, shapes: RegExp[]): string[] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parts = null;
  }
  const valid =
    Array.isArray(parts) &&
    parts.length === shapes.length &&
    parts.every(
      (p, i) =>
        typeof p === "string" &&
        shapes[i]!.test(p) &&
        // The shape alone lets 2026-13-45T… through, and PostgreSQL's cast would then fail with a 500.
        (shapes[i] !== MICROS_ISO || isRealInstant(p)),
    );
  if (!valid) throw new AppError("invalid_cursor", PAGE_MESSAGES.invalidCursor);
  return parts as string[];
}

/**
 * A timestamp as exact text (microseconds, UTC) for the cursor: a JS Date keeps only milliseconds, and rows
 * created within one millisecond would be skipped by the next page.
 */
export const exactTime = (column: AnyColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows after the cursor in (createdAt, id) descending order: a row comparison the (created_at, id) index serves. */
export function beforeTimeKey(
  createdAt: AnyColumn,
  id: AnyColumn,
  cursor: string | undefined,
): SQL | undefined {
  if (!cursor) return undefined;
  const [at, key] = decodeCursor(cursor, [MICROS_ISO, UUID]);
  return sql`(${createdAt}, ${id}) < (${at}::timestamptz, ${key}::uuid)`;
}

/** Rows after the cursor for lists ordered by one unique bigint (descending). */
export function beforeNumberKey(column: AnyColumn, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [value] = decodeCursor(cursor, [DIGITS]);
  return sql`${column} < ${value}::bigint`;
}

/** The ILIKE pattern for "contains `term`", with LIKE's own wildcards in the term matched literally. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Case-insensitive "contains" over the given columns; LIKE's own wildcards in the search are matched literally. */
export function searchAny(q: string | undefined, columns: SQLWrapper[]): SQL | undefined {
  const term = q?.trim() ?? "";
  if (!term) return undefined;
  const pattern = containsPattern(term);
  return or(...columns.map((c) => ilike(c as AnyColumn, pattern)));
}

/** The first `limit` rows (the query asked for limit + 1) and, when more exist, the cursor after the last. */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => string[],
  map: (row: R) => T,
): Page<T> {
  const page = rows.slice(0, limit);
  return {
    items: page.map(map),
    nextCursor: rows.length > limit && page.length > 0 ? encodeCursor(keyOf(page[page.length - 1]!)) : null,
  };
}

/**
 * Rows after the cursor in (flag, createdAt, id) descending order, for queues that list one kind first (pending
 * approvals before decided ones) on an index over (flag expression, created_at, id).
 */
export function beforeFlagTimeKey(
  flag: SQL,
  createdAt: AnyColumn,
  id: AnyColumn,
  cursor: string | undefined,
): SQL | undefined {
  if (!cursor) return undefined;
  const [first, at, key] = decodeCursor(cursor, [/^[01]$/, MICROS_ISO, UUID]);
  return sql`(${flag}, ${createdAt}, ${id}) < (${first === "1"}::boolean, ${at}::timestamptz, ${key}::uuid)`;
}

/**
 * Rows a search reads per page when it matches rows one by one (decision 067): a page then holds the matches among
 * the next this-many rows and, when there were more, a cursor after the last one read.
 */
export const LIST_SEARCH_SCAN_ROWS = 5000;

/** How a list pages: newest first on (a timestamp, a uuid id), or on one unique bigint. */
export type ListOrder =
  | { kind: "time"; createdAt: AnyColumn; id: AnyColumn }
  | { kind: "number"; column: AnyColumn };

/** The LIST_SEARCH_SCAN_ROWS-th row under the page's filters, or null when fewer rows are left. */
export async function scanBound(
  db: DbOrTx,
  table: PgTable,
  order: ListOrder,
  filters: SQL | undefined,
): Promise<{ where: SQL; key: string[] } | null> {
  if (order.kind === "time") {
    const [edge] = await db
      .select({ at: exactTime(order.createdAt), id: sql<string>`${order.id}::text` })
      .from(table)
      .where(filters)
      .orderBy(desc(order.createdAt), desc(order.id))
      .offset(LIST_SEARCH_SCAN_ROWS - 1)
      .limit(1);
    return edge
      ? {
          where: sql`(${order.createdAt}, ${order.id}) >= (${edge.at}::timestamptz, ${edge.id}::uuid)`,
          key: [edge.at, edge.id],
        }
      : null;
  }
  const [edge] = await db
    .select({ value: sql<string>`${order.column}::text` })
    .from(table)
    .where(filters)
    .orderBy(desc(order.column))
    .offset(LIST_SEARCH_SCAN_ROWS - 1)
    .limit(1);
  return edge ? { where: sql`${order.column} >= ${edge.value}::bigint`, key: [edge.value] } : null;
}

/** The page, continued after the walk's bound when the bound cut it short (its own cursor wins otherwise). */
export function continuedAfter<T>(page: Page<T>, search: { bound: string[] | null }): Page<T> {
  return page.nextCursor || !search.bound ? page : { ...page, nextCursor: encodeCursor(search.bound) };
}
