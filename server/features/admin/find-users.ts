import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { AdminStats, AdminUser, AdminUserQuery } from "@/contract/admin";
import { ADMIN_MESSAGES, RECEIVING_FILTER } from "@/contract/admin";
import { formatMoney } from "@/contract/money";
import type { Page } from "@/contract/pages";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { accountRequests, ledgerAccounts, users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { beforeTimeKey, containsPattern, exactTime, toPage } from "@/server/lib/keyset-page";
import { findWallet, type Wallet, walletBalances } from "@/server/lib/ledger";

type UserRow = typeof users.$inferSelect;

function toAdminUser(row: UserRow, wallet: Wallet | undefined): AdminUser {
  const balances = walletBalances(wallet);
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phoneNumber: row.phoneNumber,
    pillarTag: row.pillarTag,
    isAdmin: row.isAdmin,
    isEmailVerified: row.isEmailVerified,
    isVerified: row.isEmailVerified,
    status: row.status,
    frozenAt: row.frozenAt ? row.frozenAt.toISOString() : null,
    passwordResetRequired: row.passwordResetRequired,
    accountBalance: balances.totalBalance,
    availableBalance: balances.availableBalance,
    pendingBalance: balances.pendingBalance,
    createdAt: row.createdAt.toISOString(),
  };
}

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
type UserSearch =
  | { kind: "email" | "tag" | "last4" | "account" | "address"; term: string }
  | { kind: "text"; pattern: string; trigram: boolean };

function userSearch(q: string | undefined): UserSearch | undefined {
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
function matchesUser(s: UserSearch): SQL {
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

/**
 * The users the search names, from each source's own index, at most SEARCH_CANDIDATE_CAP per source; null when
 * a source has more (a frequent match: the walk then finds a page of them within a few thousand rows of the
 * created_at index) or the term is too short for any index.
 */
async function searchCandidates(db: DbOrTx, s: UserSearch): Promise<string[] | null> {
  const sources = candidateSources(s, SEARCH_CANDIDATE_CAP + 1);
  if (sources.length === 0) return null;
  const rows = await queryRows<{ source: string; user_id: string | null }>(
    db,
    sql.join(sources, sql` union all `),
  );
  const perSource = new Map<string, number>();
  for (const r of rows) perSource.set(r.source, (perSource.get(r.source) ?? 0) + 1);
  if ([...perSource.values()].some((n) => n > SEARCH_CANDIDATE_CAP)) return null;
  return [...new Set(rows.flatMap((r) => (r.user_id ? [r.user_id] : [])))];
}

/**
 * One page of accounts, newest first, searched by a fragment of a name, e-mail or Pillar tag, a whole e-mail, a
 * "$tag", the last four digits or whole of an account number, or a crypto address (deposit, saved or paid to). A page
 * is bounded either way (decision 061): a rare match is found through its indexes and only those rows are
 * sorted; a frequent one walks the (created_at, id) index and stops at the page. The wallet comes in the same
 * query by a join: the old list bound every user id as a parameter, which failed past 65,535.
 */
export async function findUsers(
  db: DbOrTx,
  { cursor, limit, q, role }: AdminUserQuery,
): Promise<Page<AdminUser>> {
  const search = userSearch(q);
  const candidates = search ? await searchCandidates(db, search) : null;
  const rows = await db
    .select({
      user: users,
      key: exactTime(users.createdAt),
      wallet: { id: ledgerAccounts.id, balance: ledgerAccounts.balance, held: ledgerAccounts.held },
    })
    .from(users)
    .leftJoin(ledgerAccounts, and(eq(ledgerAccounts.userId, users.id), eq(ledgerAccounts.kind, "wallet")))
    .where(
      and(
        beforeTimeKey(users.createdAt, users.id, cursor),
        role === "all" ? undefined : eq(users.isAdmin, role === "staff"),
        // The same rule as lockReceivingCustomer (server/features/payments/receiving-customer.ts): an open account.
        role === RECEIVING_FILTER
          ? sql`exists (select 1 from ${accountRequests} r where r.user_id = ${users.id}
              and r.superseded_at is null and r.status = 'approved')`
          : undefined,
        // One array literal parameter, however many candidates (ids come from uuid columns: no quoting needed).
        search && candidates ? sql`${users.id} = any(${`{${candidates.join(",")}}`}::uuid[])` : undefined,
        search && !candidates ? matchesUser(search) : undefined,
      ),
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (r) => [r.key, r.user.id],
    (r) => toAdminUser(r.user, r.wallet ? { ...r.wallet, userId: r.user.id } : undefined),
  );
}

export async function getUser(db: DbOrTx, userId: string): Promise<AdminUser> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.userNotFound);
  return toAdminUser(row, (await findWallet(db, userId)) ?? undefined);
}

/**
 * Back-office headline figures: customers (the user list's "Customers" filter counts the same rows), approved
 * accounts, money held in wallets, and transactions. Exact and O(1) at any size (decision 061): the folded row
 * plus the deltas the writes' triggers appended since the last fold (admin-stats.ts), in one snapshot.
 */
export async function getAdminStats(db: DbOrTx): Promise<AdminStats> {
  const [row] = await queryRows<{ customers: string; accounts: string; money: string; history: string }>(
    db,
    sql`select (s.customers + coalesce(d.customers, 0))::text as customers,
        (s.active_accounts + coalesce(d.active_accounts, 0))::text as accounts,
        (s.wallet_balance + coalesce(d.wallet_balance, 0))::text as money,
        (s.transactions + coalesce(d.transactions, 0))::text as history
      from admin_stats s cross join (
        select sum(customers) as customers, sum(active_accounts) as active_accounts,
          sum(wallet_balance) as wallet_balance, sum(transactions) as transactions
        from admin_stats_deltas) d
      where s.id = 1`,
  );
  if (!row) throw new Error("admin_stats has no row: migration 0051 writes it");
  return {
    totalUsers: Number(row.customers),
    activeAccounts: Number(row.accounts),
    totalBalance: formatMoney(BigInt(row.money)),
    transactions: Number(row.history),
  };
}
