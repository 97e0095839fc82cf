import { type AnyColumn, and, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { z } from "zod";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { containsPattern, type ListOrder, scanBound, searchAny } from "@/server/lib/keyset-page";

// What a staff search term names (decisions 061 and 067): read by its shape, answered from each shape's own index,
// for the user list (server/features/admin/find-users.ts) and every other staff list (listSearch).

/** More candidates than this from one source and the search walks the created_at index instead (decision 061). */
export const SEARCH_CANDIDATE_CAP = 1000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LAST4 = /^\d{4}$/;
const ACCOUNT_NUMBER = /^[1-9]\d{8}$/;
// A 0x address, or another chain's (base58/bech32): one long token of letters and digits.
const ADDRESS = /^(?=.*\d)[0-9a-z]{26,100}$/i;

/**
 * What a search term names, by its shape (decision 061): a whole e-mail address, a "$tag", four digits (the
 * last four of an account number), nine (a whole one) or a crypto address each go to their own exact index;
 * anything else is a fragment of a name, an e-mail or a tag, found through the trigram indexes.
 */
export type UserSearch =
  | { kind: "email" | "tag" | "last4" | "account" | "address"; term: string }
  | { kind: "text"; pattern: string; trigram: boolean };

export function userSearch(q: string | undefined): UserSearch | undefined {
  const raw = q?.trim() ?? "";
  const term = raw.replace(/^\$/, "").trim();
  if (!term) return undefined;
  if (raw.startsWith("$") && !/\s/.test(term)) return { kind: "tag", term: term.toLowerCase() };
  if (EMAIL.test(term)) return { kind: "email", term: term.toLowerCase() };
  if (LAST4.test(term)) return { kind: "last4", term };
  if (ACCOUNT_NUMBER.test(term)) return { kind: "account", term };
  if (ADDRESS.test(term)) return { kind: "address", term: term.toLowerCase() };
  // A fragment shorter than a trigram matches most users anyway: it walks.
  return { kind: "text", pattern: containsPattern(term), trigram: term.length >= 3 };
}

const nameOf = sql`(${users.firstName} || ' ' || ${users.lastName})`;

/** The search as a condition on one users row: what the walk over the created_at index filters by. */
export function matchesUser(s: UserSearch): SQL {
  switch (s.kind) {
    case "email":
      return sql`lower(${users.email}) = ${s.term}`;
    case "tag":
      return sql`lower(${users.pillarTag}) = ${s.term}`;
    case "last4":
      return sql`exists (select 1 from account_requests r where r.user_id = ${users.id}
        and right(r.account_number, 4) = ${s.term})`;
    case "account":
      return sql`exists (select 1 from account_requests r where r.user_id = ${users.id}
        and r.account_number = ${s.term})`;
    case "address":
      return sql`(exists (select 1 from deposit_addresses d where d.user_id = ${users.id} and d.address = ${s.term})
        or exists (select 1 from saved_recipients r where r.user_id = ${users.id} and lower(r.address) = ${s.term})
        or exists (select 1 from transfer_requests t where t.user_id = ${users.id}
          and lower(t.crypto_address) = ${s.term}))`;
    case "text":
      return sql`(${users.email} ilike ${s.pattern} or ${users.pillarTag} ilike ${s.pattern}
        or ${nameOf} ilike ${s.pattern})`;
  }
}

/** Each source of candidates for a search: one index each, at most `cap` rows. */
function candidateSources(s: UserSearch, cap: number): SQL[] {
  switch (s.kind) {
    case "email":
      return [sql`(select 'email' as source, id as user_id from users where lower(email) = ${s.term})`];
    case "tag":
      return [sql`(select 'tag' as source, id as user_id from users where lower(pillar_tag) = ${s.term})`];
    case "last4":
      return [
        // The comparison is strict, so it implies the partial index's "account number present" predicate.
        sql`(select 'last4' as source, user_id from account_requests
          where right(account_number, 4) = ${s.term} limit ${cap})`,
      ];
    case "account":
      return [
        sql`(select 'account' as source, user_id from account_requests where account_number = ${s.term})`,
      ];
    case "address":
      return [
        sql`(select 'deposit' as source, user_id from deposit_addresses where address = ${s.term})`,
        sql`(select 'saved', user_id from saved_recipients where lower(address) = ${s.term} limit ${cap})`,
        sql`(select 'paid', user_id from transfer_requests where lower(crypto_address) = ${s.term} limit ${cap})`,
      ];
    case "text":
      return s.trigram
        ? [
            sql`(select 'text' as source, id as user_id from users
              where email ilike ${s.pattern} or pillar_tag ilike ${s.pattern}
                or (first_name || ' ' || last_name) ilike ${s.pattern}
              limit ${cap})`,
          ]
        : [];
  }
}

/** The newest users a fragment is first tried on, and how many of them it must match to be frequent (1 %). */
const FREQUENT_SAMPLE = 2000;
const FREQUENT_MATCHES = 20;

/**
 * Whether a fragment matches at least 1 % of the newest users (a common surname's fragment does): then the walk
 * fills a page within a few thousand rows, and the trigram probe would read a thousand matches only to learn it
 * should walk. At most FREQUENT_SAMPLE rows of the created_at index, stopping at the FREQUENT_MATCHES-th match.
 */
async function isFrequent(db: DbOrTx, pattern: string): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`select count(*)::int as n from (
      select 1 from (
        select email, pillar_tag, first_name, last_name from users
        order by created_at desc, id desc limit ${FREQUENT_SAMPLE}) u
      where u.email ilike ${pattern} or u.pillar_tag ilike ${pattern}
        or (u.first_name || ' ' || u.last_name) ilike ${pattern}
      limit ${FREQUENT_MATCHES}) m`,
    z.object({ n: z.number() }),
  );
  return (row?.n ?? 0) >= FREQUENT_MATCHES;
}

/**
 * The users the search names, from each source's own index, at most SEARCH_CANDIDATE_CAP per source; null when
 * a source has more (a frequent match: the walk then finds a page of them within a few thousand rows of the
 * created_at index) or the term is too short for any index.
 */
export async function searchCandidates(db: DbOrTx, s: UserSearch): Promise<string[] | null> {
  const sources = candidateSources(s, SEARCH_CANDIDATE_CAP + 1);
  if (sources.length === 0) return null;
  if (s.kind === "text" && (await isFrequent(db, s.pattern))) return null;
  const rows = await queryRows(
    db,
    sql.join(sources, sql` union all `),
    z.object({ source: z.string(), user_id: z.string().nullable() }),
  );
  const perSource = new Map<string, number>();
  for (const r of rows) perSource.set(r.source, (perSource.get(r.source) ?? 0) + 1);
  if ([...perSource.values()].some((n) => n > SEARCH_CANDIDATE_CAP)) return null;
  return [...new Set(rows.flatMap((r) => (r.user_id ? [r.user_id] : [])))];
}

/**
 * The customers a staff search term names (read by its shape, as the user list reads it), from their own indexes;
 * null when the term is too frequent or too short for them (decision 067: the other staff lists search this way).
 */
async function customerIdsNamedBy(db: DbOrTx, term: string): Promise<string[] | null> {
  const search = userSearch(term);
  return search ? searchCandidates(db, search) : null;
}

/** The customer's columns a term matches ("contains") in the walk: those the customer search's indexes cover. */
const CUSTOMER_TEXT: SQLWrapper[] = [
  users.email,
  users.pillarTag,
  sql`${users.firstName} || ' ' || ${users.lastName}`,
];

/** A list's table, order and filters; its query joins `users` on the row's customer (the walk matches them). */
export interface ListSearchSpec {
  table: PgTable;
  order: ListOrder;
  /** The list's column naming the customer a row belongs to. */
  userId: AnyColumn;
  /** The page's filters other than the search (status, cursor): the walk's bound is read under them. */
  filters: SQL | undefined;
  /** The row's own columns (a description, a recipient): matched row by row in the bounded walk. */
  ownText?: SQLWrapper[];
}

export interface ListSearch {
  /** The search's condition on the list's rows, or undefined without a term. */
  where: SQL | undefined;
  /** The last row the walk may read, as a cursor's parts: a short page continues after it. */
  bound: string[] | null;
}

/**
 * A staff list's search, bounded at any size (decision 067). The term is read as the user list reads it (a whole
 * e-mail, a $tag, the last four or whole of an account number, an address, a fragment of a name, e-mail or tag)
 * and the customers it names are found through their own indexes first: when there are at most a thousand, the
 * page is those customers' rows, by the list's (user, time) index. Otherwise (no customer, a term too frequent or
 * too short for an index) the rows are matched one by one along the list's order, at most LIST_SEARCH_SCAN_ROWS
 * of them per page, so a rare match over millions of rows costs pages the staff member asks for, never one
 * unbounded scan.
 */
export async function listSearch(
  db: DbOrTx,
  q: string | undefined,
  spec: ListSearchSpec,
): Promise<ListSearch> {
  const term = q?.trim() ?? "";
  if (!term) return { where: undefined, bound: null };
  const customers = await customerIdsNamedBy(db, term);
  if (customers && customers.length > 0) {
    // One array literal parameter, however many ids (they come from uuid columns: no quoting needed).
    return { where: sql`${spec.userId} = any(${`{${customers.join(",")}}`}::uuid[])`, bound: null };
  }
  const own = spec.ownText ?? [];
  // The customer search is exact when it answers: no customer has the term, so only the rows' own text can.
  if (customers && own.length === 0) return { where: sql`false`, bound: null };
  const match = searchAny(term.replace(/^\$/, ""), customers ? own : [...CUSTOMER_TEXT, ...own]);
  const bound = await scanBound(db, spec.table, spec.order, spec.filters);
  return { where: and(match, bound?.where), bound: bound?.key ?? null };
}
