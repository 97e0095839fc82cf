import { createHash } from "node:crypto";
import {
  type AnyColumn,
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  sql,
} from "drizzle-orm";
import { DEFAULT_ROUTING_NUMBER } from "@/contract/admin-onboarding";
import { STATEMENT_MESSAGES } from "@/contract/statements";
import type { Db } from "@/server/db/client";
import {
  accountRequests,
  journalEntries,
  kycApplications,
  ledgerAccounts,
  postings,
  transactions,
  users,
} from "@/server/db/schema";
import {
  monthOf,
  monthsBetween,
  parseStatementMonth,
  type StatementPeriod,
} from "@/server/features/statements/statement-month";
import { AppError } from "@/server/lib/errors";

/** Rows per query while a statement streams: memory stays flat however busy the month was. */
export const STATEMENT_BATCH = 500;

export interface StatementOwner {
  userId: string;
  walletId: string;
  name: string;
  address: string | null;
  openedMonth: string;
  /** The checking account's number (full: only its last four digits are printed) and routing number, once opened. */
  account: { number: string; routingNumber: string } | null;
}

export interface StatementSummary {
  opening: number;
  moneyIn: number;
  moneyOut: number;
  fees: number;
  closing: number;
  count: number;
}

export interface StatementLine {
  postingId: number;
  at: Date;
  description: string;
  reference: string;
  /** The fee included in this movement (a transfer's 2%), 0 when none. */
  fee: number;
  amount: number;
  /** The on-chain transaction of a USDC payout or deposit, printed beside the movement; null otherwise. */
  chainTxHash: string | null;
}

/**
 * The on-chain hash behind a movement's reference: a payout's mined transaction (or, while it is on its way,
 * the last one broadcast) for a transfer request, a deposit's transaction for a USDC deposit. The reference is cast
 * to the key's type, never the key to text, so each is a primary-key probe rather than a scan per line.
 */
function chainHashOf(type: AnyColumn, id: AnyColumn) {
  return sql<string | null>`case ${type}::text
    when 'transfer_request' then (select coalesce(p.mined_hash, (select a.tx_hash from payout_attempts a
        where a.payout_id = p.id and a.first_broadcast_at is not null order by a.created_at desc, a.id desc limit 1))
      from payouts p where p.transfer_request_id = ${id}::text::uuid and p.status in ('sent', 'completed'))
    when 'chain_deposit' then (select d.tx_hash from chain_deposits d where d.id = ${id}::text::uuid)
    when 'usdc_deposit' then (select d.tx_hash from chain_deposits d where d.id = ${id}::text::uuid)
    end`;
}

/** A movement not yet in the balance: the same columns as a completed one, without a posting. */
export type PendingLine = Omit<StatementLine, "postingId">;

const NOT_FOUND = () => new AppError("NOT_FOUND", STATEMENT_MESSAGES.noStatement);

export async function findOwner(db: Db, userId: string): Promise<StatementOwner | null> {
  const [row] = await db
    .select({
      walletId: ledgerAccounts.id,
      openedAt: ledgerAccounts.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(ledgerAccounts)
    .innerJoin(users, eq(users.id, ledgerAccounts.userId))
    .where(eq(ledgerAccounts.userId, userId));
  if (!row) return null;
  const [kyc] = await db
    .select({ address: kycApplications.address })
    .from(kycApplications)
    .where(and(eq(kycApplications.userId, userId), eq(kycApplications.status, "approved")))
    .orderBy(desc(kycApplications.createdAt))
    .limit(1);
  // The account number the approval gave (spec: account request), the current request's first.
  const [account] = await db
    .select({ number: accountRequests.accountNumber, routingNumber: accountRequests.routingNumber })
    .from(accountRequests)
    .where(and(eq(accountRequests.userId, userId), isNotNull(accountRequests.accountNumber)))
    .orderBy(sql`${accountRequests.supersededAt} is null desc`, desc(accountRequests.createdAt))
    .limit(1);
  return {
    userId,
    walletId: row.walletId,
    name: `${row.firstName} ${row.lastName}`,
    address: kyc?.address ?? null,
    openedMonth: monthOf(row.openedAt),
    account: account?.number
      ? { number: account.number, routingNumber: account.routingNumber ?? DEFAULT_ROUTING_NUMBER }
      : null,
  };
}

/** GET /api/statements: the months the customer's account existed in, newest first. */
export async function findStatementMonths(db: Db, userId: string, now = new Date()): Promise<string[]> {
  const owner = await findOwner(db, userId);
  return owner ? monthsBetween(owner.openedMonth, monthOf(now)) : [];
}

/** The owner and period of one statement; a malformed month is a 400, one outside the account's life a 404. */
export async function openStatement(db: Db, userId: string, month: string, now = new Date()) {
  const period = parseStatementMonth(month);
  const owner = await findOwner(db, userId);
  if (!owner || month < owner.openedMonth || month > monthOf(now)) throw NOT_FOUND();
  return { owner, period };
}

/**
 * Opening balance is every wallet posting before the month; closing adds the month's postings. The opening is
 * summed from the nearer end of the account's life (decision 066): from its start, or back from the wallet's
 * balance (which always equals its postings, verifyLedger) over the postings since the month began, so last month's
 * statement of a years-old account reads a month of postings, not years. One statement: one snapshot of both.
 */
export async function getStatementSummary(
  db: Db,
  owner: StatementOwner,
  period: StatementPeriod,
): Promise<StatementSummary> {
  const start = period.start.toISOString();
  const month = sql`p.account_id = w.id and p.created_at >= ${start} and p.created_at < ${period.end.toISOString()}`;
  const [row] = await db
    .select({
      opening: sql<string>`case when ${start}::timestamptz - w.created_at <= now() - ${start}::timestamptz
          then (select coalesce(sum(p.amount), 0) from postings p where p.account_id = w.id and p.created_at < ${start})
          else w.balance - (select coalesce(sum(p.amount), 0) from postings p
            where p.account_id = w.id and p.created_at >= ${start}) end`,
      moneyIn: sql<string>`(select coalesce(sum(p.amount), 0) from postings p where ${month} and p.amount > 0)`,
      moneyOut: sql<string>`(select coalesce(sum(p.amount), 0) from postings p where ${month} and p.amount < 0)`,
      count: sql<string>`(select count(*) from postings p where ${month})`,
    })
    .from(sql`ledger_accounts w`)
    .where(sql`w.id = ${owner.walletId}`);
  const [feeRow] = await db
    .select({ fees: sql<string>`coalesce(sum(${transactions.fee}), 0)` })
    .from(postings)
    .innerJoin(
      transactions,
      and(eq(transactions.entryId, postings.entryId), eq(transactions.userId, owner.userId)),
    )
    .where(monthPostings(owner, period));
  const opening = Number(row!.opening);
  const moneyIn = Number(row!.moneyIn);
  const moneyOut = Number(row!.moneyOut);
  return {
    opening,
    moneyIn,
    moneyOut,
    fees: Number(feeRow!.fees),
    closing: opening + moneyIn + moneyOut,
    count: Number(row!.count),
  };
}

function monthPostings(owner: StatementOwner, period: StatementPeriod) {
  return and(
    eq(postings.accountId, owner.walletId),
    gte(postings.createdAt, period.start),
    lt(postings.createdAt, period.end),
  );
}

/**
 * The month's wallet postings in ledger order, fetched in keyset batches. Ordered by posting id (the order
 * they were written), which is also the order the digest is computed in.
 */
export async function* iterateStatementLines(
  db: Db,
  owner: StatementOwner,
  period: StatementPeriod,
): AsyncGenerator<StatementLine[]> {
  let after = 0;
  for (;;) {
    const rows = await db
      .select({
        postingId: postings.id,
        at: postings.createdAt,
        amount: postings.amount,
        entryId: journalEntries.id,
        // A move between the customer's own accounts reads as their history does ("To Savings: Emergency fund").
        description: sql<string>`case when ${journalEntries.kind} = 'savings_move' then coalesce((select
            ${transactions.description} from ${transactions} where ${transactions.entryId} = ${postings.entryId}
            and ${transactions.userId} = ${owner.userId} limit 1), ${journalEntries.description})
          else ${journalEntries.description} end`,
        referenceType: journalEntries.referenceType,
        referenceId: journalEntries.referenceId,
        fee: sql<string | null>`(select ${transactions.fee} from ${transactions}
          where ${transactions.entryId} = ${postings.entryId} and ${transactions.userId} = ${owner.userId} limit 1)`,
        chainTxHash: chainHashOf(journalEntries.referenceType, journalEntries.referenceId),
      })
      .from(postings)
      .innerJoin(journalEntries, eq(journalEntries.id, postings.entryId))
      .where(and(monthPostings(owner, period), gt(postings.id, after)))
      .orderBy(asc(postings.id))
      .limit(STATEMENT_BATCH);
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      postingId: row.postingId,
      at: row.at,
      amount: row.amount,
      description: row.description,
      // An adjustment's reference is the customer themself: the entry's own id identifies it better.
      reference: row.referenceType !== "user" && row.referenceId ? row.referenceId : row.entryId,
      fee: Number(row.fee ?? 0),
      chainTxHash: row.chainTxHash,
    }));
    after = rows.at(-1)!.postingId;
    if (rows.length < STATEMENT_BATCH) return;
  }
}

/** Movements started in the month whose money has not moved yet (a held transfer): shown apart, not in balances. */
export async function findPendingLines(
  db: Db,
  owner: StatementOwner,
  period: StatementPeriod,
): Promise<PendingLine[]> {
  const rows = await db
    .select({
      t: transactions,
      chainTxHash: chainHashOf(transactions.sourceType, transactions.sourceId),
    })
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, owner.userId),
        isNull(transactions.entryId),
        inArray(transactions.status, ["initiated", "pending", "in_review", "processing"]),
        gte(transactions.createdAt, period.start),
        lt(transactions.createdAt, period.end),
      ),
    )
    .orderBy(asc(transactions.createdAt), asc(transactions.id));
  return rows.map(({ t: row, chainTxHash }) => ({
    at: row.createdAt,
    description: row.description,
    reference: row.sourceType === "transfer_request" && row.sourceId ? row.sourceId : row.id,
    fee: row.fee,
    amount: row.type === "debit" ? -row.amount : row.amount,
    chainTxHash,
  }));
}

/** What the digest covers; versioned so a future change of recipe cannot match an old copy by accident. */
export function digestHeader(
  owner: Pick<StatementOwner, "walletId">,
  period: StatementPeriod,
  opening: number,
): string {
  return `pillar-statement-v1\n${owner.walletId}\n${period.month}\n${opening}\n`;
}

/** A running SHA-256 over the month's postings (id:amount per line), fed as the statement streams. */
export function createStatementDigest(owner: StatementOwner, period: StatementPeriod, opening: number) {
  const hash = createHash("sha256").update(digestHeader(owner, period, opening));
  return {
    add(lines: StatementLine[]) {
      for (const line of lines) hash.update(`${line.postingId}:${line.amount}\n`);
    },
    /** 16 hex characters in groups of four: short enough to read out on the phone. */
    finish(): string {
      return formatDigest(hash.digest("hex"));
    },
  };
}

export function formatDigest(hex: string): string {
  return hex.slice(0, 16).toUpperCase().match(/.{4}/g)!.join("-");
}

/** Recomputes a statement's digest from the ledger (the CLI's statement:verify). */
export async function computeStatementDigest(db: Db, userId: string, month: string) {
  const { owner, period } = await openStatement(db, userId, month);
  const summary = await getStatementSummary(db, owner, period);
  const digest = createStatementDigest(owner, period, summary.opening);
  for await (const lines of iterateStatementLines(db, owner, period)) digest.add(lines);
  return { summary, digest: digest.finish() };
}
