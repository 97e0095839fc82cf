import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { assertCents, formatMoney, MAX_CENTS } from "@/contract/money";
import { type DbOrTx, queryRows, type Tx } from "@/server/db/client";
import { holds, journalEntries, ledgerAccounts, postings } from "@/server/db/schema";
import { AppError, pgConstraint, pgErrorCode } from "@/server/lib/errors";

export const SYSTEM_ACCOUNTS = [
  "external_funding",
  "usdc_clearing",
  "fee_revenue",
  "adjustments",
  // USDC that arrived on chain at a customer's deposit address (migration 0024, decision 028).
  "usdc_deposits",
  // A transfer to a listed person compliance blocked: the customer's money, held apart (migration 0040, decision 048).
  "blocked_funds",
  // Savings interest (migration 0056, decision 068): the bank's cost, and what it owes until the credit pays it.
  "interest_expense",
  "interest_payable",
] as const;
export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[number];

export interface Wallet {
  id: string;
  userId: string;
  balance: number;
  held: number;
}

/**
 * A wallet's balances as customers and staff see them (DESIGN: total = balance, pending = held,
 * available = balance − held); no wallet yet shows zeros.
 */
export function walletBalances(wallet: Pick<Wallet, "balance" | "held"> | null | undefined) {
  const balance = wallet?.balance ?? 0;
  const held = wallet?.held ?? 0;
  return {
    totalBalance: formatMoney(balance),
    availableBalance: formatMoney(balance - held),
    pendingBalance: formatMoney(held),
    balanceCents: balance,
    availableCents: balance - held,
    pendingCents: held,
  };
}

export interface PostingInput {
  accountId: string;
  amount: number;
}

export interface EntryInput {
  kind: string;
  description: string;
  referenceType?: string;
  referenceId?: string;
  actorId?: string | null;
  postings: PostingInput[];
}

const walletCode = (userId: string) => `wallet:${userId}`;

/** Opens the user's wallet if it does not exist yet; safe to call twice or concurrently. */
export async function openWallet(db: DbOrTx, userId: string): Promise<void> {
  await db
    .insert(ledgerAccounts)
    .values({ code: walletCode(userId), kind: "wallet", userId })
    .onConflictDoNothing({ target: ledgerAccounts.code });
}

export async function findWallet(db: DbOrTx, userId: string): Promise<Wallet | null> {
  const [row] = await db
    .select({
      id: ledgerAccounts.id,
      userId: ledgerAccounts.userId,
      balance: ledgerAccounts.balance,
      held: ledgerAccounts.held,
    })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.userId, userId));
  return row ? { ...row, userId: row.userId! } : null;
}

const selectWalletForUpdate = (tx: Tx, userId: string) =>
  tx
    .select({
      id: ledgerAccounts.id,
      userId: ledgerAccounts.userId,
      balance: ledgerAccounts.balance,
      held: ledgerAccounts.held,
    })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.userId, userId))
    .for("update");

/**
 * Locks the user's wallet row for the rest of the transaction (opening it first if needed).
 * Every money movement on a wallet goes through this lock, so two of them never see the same balance.
 * The wallet almost always exists, so the common case is one statement.
 */
export async function lockWallet(tx: Tx, userId: string): Promise<Wallet> {
  let [row] = await selectWalletForUpdate(tx, userId);
  if (!row) {
    await openWallet(tx, userId);
    [row] = await selectWalletForUpdate(tx, userId);
  }
  return { ...row, userId: row.userId! };
}

/** The id of a system account (seeded by the ledger migration). */
export async function systemAccountId(db: DbOrTx, code: SystemAccount): Promise<string> {
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.code, code));
  if (!row) throw new Error(`System ledger account ${code} is missing: run the migrations`);
  return row.id;
}

function assertBalanced(entry: EntryInput) {
  if (entry.postings.length < 2) throw new Error("A journal entry needs at least two postings");
  let sum = 0;
  for (const p of entry.postings) {
    assertCents(p.amount);
    if (p.amount === 0) throw new Error("A posting cannot be zero");
    sum += p.amount;
  }
  if (sum !== 0) throw new Error(`Journal entry ${entry.kind} does not balance: ${sum}`);
}

/**
 * Writes one balanced journal entry and moves the cached wallet balances in the same transaction.
 * Wallets are updated in id order so two entries touching the same wallets cannot deadlock.
 * A wallet that would go below its held amount violates the CHECK and fails the whole transaction.
 */
export async function postEntry(tx: Tx, entry: EntryInput): Promise<string> {
  assertBalanced(entry);
  const [created] = await tx
    .insert(journalEntries)
    .values({
      kind: entry.kind,
      description: entry.description,
      referenceType: entry.referenceType ?? null,
      referenceId: entry.referenceId ?? null,
      actorId: entry.actorId ?? null,
    })
    .returning({ id: journalEntries.id });
  await tx
    .insert(postings)
    .values(entry.postings.map((p) => ({ entryId: created.id, accountId: p.accountId, amount: p.amount })));

  const byAccount = new Map<string, number>();
  for (const p of entry.postings) byAccount.set(p.accountId, (byAccount.get(p.accountId) ?? 0) + p.amount);
  const ids = [...byAccount.keys()].sort();
  try {
    for (const id of ids) {
      const delta = byAccount.get(id)!;
      if (delta === 0) continue;
      await tx
        .update(ledgerAccounts)
        .set({ balance: sql`${ledgerAccounts.balance} + ${delta}` })
        .where(and(eq(ledgerAccounts.id, id), eq(ledgerAccounts.kind, "wallet")));
    }
  } catch (err) {
    throw walletCheckRefusal(err) ?? err;
  }
  return created.id;
}

/**
 * A wallet CHECK that refused a movement of cached balances (here or in a money function's own postings), as the
 * answer it gives: a wallet past its cap, or one that would go below its held amount. Null for any other error.
 */
export function walletCheckRefusal(err: unknown): AppError | null {
  const constraint = pgConstraint(err);
  if (pgErrorCode(err) !== "23514" || !constraint?.startsWith("ledger_accounts_")) return null;
  if (constraint === "ledger_accounts_balance_within_cap") {
    return new AppError("wallet_limit_exceeded", `A wallet can hold at most ${formatMoney(MAX_CENTS)}`);
  }
  return new AppError("CONFLICT", "Insufficient funds for this movement");
}

/**
 * Money arriving from outside the bank (an incoming payment, an admin credit): external funding → the
 * customer's wallet, locked first, as one entry. Returns the entry id and the wallet's new balance.
 */
export async function creditFromExternalFunding(
  tx: Tx,
  userId: string,
  entry: Omit<EntryInput, "postings"> & { amount: number },
): Promise<{ entryId: string; balance: number }> {
  return creditFromSystemAccount(tx, "external_funding", userId, entry);
}

/** `source` → the customer's wallet, locked first, as one entry (money arriving from outside the bank). */
export async function creditFromSystemAccount(
  tx: Tx,
  source: SystemAccount,
  userId: string,
  entry: Omit<EntryInput, "postings"> & { amount: number },
): Promise<{ entryId: string; balance: number }> {
  const { amount, ...rest } = entry;
  const wallet = await lockWallet(tx, userId);
  const entryId = await postEntry(tx, {
    ...rest,
    postings: [
      { accountId: await systemAccountId(tx, source), amount: -amount },
      { accountId: wallet.id, amount },
    ],
  });
  return { entryId, balance: wallet.balance + amount };
}

/**
 * Takes back money that arrived from `source` and turned out never to have arrived (a deposit a deep reorg removed,
 * decision 056): the customer's wallet → `source`, locked first, as one entry, whatever the wallet holds. What the
 * customer already spent leaves the available balance below zero; `returned_owed` is raised to exactly that
 * shortfall first, so the wallet CHECK allows it and nothing more (the returned-deposit trigger shrinks it back
 * as money arrives). The only path by which a wallet goes below zero.
 */
export async function debitReturnedMoney(
  tx: Tx,
  source: SystemAccount,
  userId: string,
  entry: Omit<EntryInput, "postings"> & { amount: number },
): Promise<{ entryId: string; balance: number; owed: number }> {
  const { amount, ...rest } = entry;
  assertCents(amount);
  if (amount <= 0) throw new Error("A returned amount must be positive");
  const wallet = await lockWallet(tx, userId);
  const shortfall = Math.max(0, wallet.held - (wallet.balance - amount));
  const [raised] = await tx
    .update(ledgerAccounts)
    .set({ returnedOwed: sql`greatest(${ledgerAccounts.returnedOwed}, ${shortfall})` })
    .where(eq(ledgerAccounts.id, wallet.id))
    .returning({ owed: ledgerAccounts.returnedOwed });
  const entryId = await postEntry(tx, {
    ...rest,
    postings: [
      { accountId: wallet.id, amount: -amount },
      { accountId: await systemAccountId(tx, source), amount },
    ],
  });
  return { entryId, balance: wallet.balance - amount, owed: raised!.owed };
}

/**
 * Sets money aside on a locked wallet through place_hold (server/db/functions), the same function the transfer path
 * (create_transfer_request) calls; fails if the wallet's available balance is smaller.
 */
export async function placeHold(
  tx: Tx,
  wallet: Wallet,
  amount: number,
  reference: { type: string; id: string },
): Promise<string> {
  assertCents(amount);
  if (amount <= 0) throw new Error("A hold must be positive");
  try {
    const [row] = await queryRows(
      tx,
      sql`select place_hold(${randomUUID()}::uuid, ${wallet.id}::uuid, ${amount}::bigint, ${reference.type}, ${reference.id}) as id`,
      z.object({ id: z.string() }),
    );
    return row!.id;
  } catch (err) {
    if (pgErrorCode(err) === "23514")
      throw new AppError("hold_insufficient_funds", "Insufficient funds for this hold");
    throw err;
  }
}

/** Closes an open hold exactly once: the row is locked and must still be open. */
async function closeHold(tx: Tx, holdId: string, status: "captured" | "released") {
  const [hold] = await tx.select().from(holds).where(eq(holds.id, holdId)).for("update");
  if (!hold) throw new Error(`Hold ${holdId} does not exist`);
  if (hold.status !== "open") throw new AppError("CONFLICT", `This hold was already ${hold.status}`);
  await tx.update(holds).set({ status, closedAt: new Date() }).where(eq(holds.id, holdId));
  await tx
    .update(ledgerAccounts)
    .set({ held: sql`${ledgerAccounts.held} - ${hold.amount}` })
    .where(eq(ledgerAccounts.id, hold.accountId));
  return hold;
}

export async function releaseHold(tx: Tx, holdId: string): Promise<void> {
  await closeHold(tx, holdId, "released");
}

/** Releases the hold and posts the entry that spends it, in one step. */
export async function captureHold(tx: Tx, holdId: string, entry: EntryInput): Promise<string> {
  const hold = await closeHold(tx, holdId, "captured");
  const debited = -entry.postings
    .filter((p) => p.accountId === hold.accountId)
    .reduce((s, p) => s + p.amount, 0);
  if (debited !== hold.amount)
    throw new Error(`Capture of ${hold.amount} posts ${debited} from the held wallet`);
  return postEntry(tx, entry);
}

export interface LedgerReport {
  ok: boolean;
  entries: number;
  accounts: number;
  problems: string[];
}

/** Accounts, and journal entries, read per statement by verifyLedger: each statement is short and bounded. */
export const VERIFY_BATCH = 2000;

export interface LedgerVerifyProgress {
  phase: "postings" | "entries" | "accounts";
  done: number;
}

const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/**
 * One batch's statement with PostgreSQL's JIT off: a batch's estimated cost (a subquery per row over postings)
 * is above jit_above_cost, and compiling it took 1–2 s per statement for a run of a few hundred ms (measured on
 * the scale seeder's 10 k bank). `set local` ends with the batch's own short transaction.
 */
export function withoutJit<T>(db: DbOrTx, read: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    return read(tx);
  });
}

/**
 * Recomputes everything from postings and reports any drift: unbalanced entries, a non-zero grand total,
 * cached wallet balances or held amounts that differ from postings and open holds.
 *
 * Streams (decision 062), every statement bounded and short, memory one batch: postings by primary-key range
 * summed per entry (a range scan, not a lookup per entry), then accounts in keyset batches of `batchSize`,
 * each summing its accounts' postings through postings_account_idx. An account's cached figures and its
 * postings are read by one statement (one snapshot), and an entry still unbalanced after the walk is summed
 * again alone before it is reported, so a transfer committing during the run cannot read as drift. The grand
 * total is the sum of the unbalanced entries' totals (every posting belongs to one entry).
 */
export async function verifyLedger(
  db: DbOrTx,
  options: { batchSize?: number; onProgress?: (progress: LedgerVerifyProgress) => void } = {},
): Promise<LedgerReport> {
  const batchSize = options.batchSize ?? VERIFY_BATCH;
  const problems: string[] = [];
  // Entries balance: postings walked by primary key, a range of ids a statement, summed per entry; an entry's
  // postings are written together, so a partial sum is carried only across a range's edge. What is still not zero
  // at the end (an unbalanced entry, or one whose postings committed behind the walk) is summed again by entry.
  const entryTotal = z.object({ entry_id: z.string(), total: z.string() });
  const [{ last: lastPosting }] = (await queryRows(
    db,
    sql`select coalesce(max(id), 0)::text as last from postings`,
    z.object({ last: z.string() }),
  )) as [{ last: string }];
  const partial = new Map<string, bigint>();
  const range = BigInt(batchSize * 10);
  for (let after = 0n; after < BigInt(lastPosting); after += range) {
    const rows = await withoutJit(db, (tx) =>
      queryRows(
        tx,
        sql`select entry_id::text as entry_id, sum(amount)::text as total from postings
            where id > ${after.toString()}::bigint and id <= ${(after + range).toString()}::bigint
            group by entry_id`,
        entryTotal,
      ),
    );
    for (const row of rows) {
      const sum = (partial.get(row.entry_id) ?? 0n) + BigInt(row.total);
      if (sum === 0n) partial.delete(row.entry_id);
      else partial.set(row.entry_id, sum);
    }
    options.onProgress?.({
      phase: "postings",
      done: Number(after + range > BigInt(lastPosting) ? BigInt(lastPosting) : after + range),
    });
  }
  let grand = 0n;
  const open = [...partial.keys()];
  for (let i = 0; i < open.length; i += batchSize) {
    const ids = open.slice(i, i + batchSize);
    for (const row of await queryRows(
      db,
      sql`select entry_id::text as entry_id, sum(amount)::text as total from postings
          where entry_id = any(${`{${ids.join(",")}}`}::uuid[]) group by entry_id having sum(amount) <> 0
          order by entry_id`,
      entryTotal,
    )) {
      problems.push(`entry ${row.entry_id} sums to ${row.total}`);
      grand += BigInt(row.total);
    }
  }
  // Counted by keyset over the primary key, a bounded index-only range a statement.
  let entries = 0;
  for (let after = NIL_UUID; ; ) {
    const [row] = await queryRows(
      db,
      sql`select count(*)::int as n, max(id::text) as last
          from (select id from journal_entries where id > ${after}::uuid order by id limit ${batchSize * 25}) e`,
      z.object({ n: z.number(), last: z.string().nullable() }),
    );
    entries += row?.n ?? 0;
    options.onProgress?.({ phase: "entries", done: entries });
    if (!row?.last || row.n < batchSize * 25) break;
    after = row.last;
  }
  if (grand !== 0n) problems.push(`postings sum to ${grand}, not 0`);

  // Open holds are few (transfers awaiting approval) and have no index by account since 0042 (a transfer does
  // not write one): one grouped pass, kept in memory, then checked against each batch of wallets.
  const openHolds = new Map<string, string>();
  for (const h of await queryRows(
    db,
    sql`select account_id::text as account_id, sum(amount)::text as total from holds where status = 'open' group by account_id`,
    z.object({ account_id: z.string(), total: z.string() }),
  ))
    openHolds.set(h.account_id, h.total);

  const accountRow = z.object({
    id: z.string(),
    code: z.string(),
    kind: z.string(),
    balance: z.string(),
    held: z.string(),
    owed: z.string(),
    posted: z.string(),
  });
  let accounts = 0;
  const recheck: string[] = [];
  const checkAccount = (a: z.infer<typeof accountRow>, holdsTotal: string) => {
    // A savings account caches its balance as a wallet does (decision 068); nothing is ever held on it.
    if (a.kind === "wallet" || a.kind === "savings") {
      if (a.balance !== a.posted)
        problems.push(`${a.code}: cached balance ${a.balance} but postings sum to ${a.posted}`);
      if (a.held !== holdsTotal)
        problems.push(`${a.code}: held ${a.held} but open holds sum to ${holdsTotal}`);
      // Below zero only by what a reversed deposit left owing (decision 056).
      if (BigInt(a.posted) - BigInt(holdsTotal) < -BigInt(a.owed))
        problems.push(`${a.code}: available balance is negative`);
    } else if (a.balance !== "0" || a.held !== "0" || a.owed !== "0") {
      problems.push(`${a.code}: a system account must keep no cached balance`);
    }
  };
  // Every amount as text: a verification that rounded through a float could miss a one-cent drift.
  const accountColumns = sql`a.id::text as id, a.code, a.kind, a.balance::text as balance, a.held::text as held,
    a.returned_owed::text as owed,
    coalesce((select sum(p.amount) from postings p where p.account_id = a.id), 0)::text as posted`;
  for (let after = NIL_UUID; ; ) {
    const rows = await withoutJit(db, (tx) =>
      queryRows(
        tx,
        sql`select ${accountColumns} from ledger_accounts a where a.id > ${after}::uuid order by a.id limit ${batchSize}`,
        accountRow,
      ),
    );
    for (const a of rows) {
      // The map was read before this batch: a hold placed or closed since differs by design; read it again.
      if (a.held !== (openHolds.get(a.id) ?? "0")) recheck.push(a.id);
      else checkAccount(a, openHolds.get(a.id) ?? "0");
    }
    accounts += rows.length;
    options.onProgress?.({ phase: "accounts", done: accounts });
    if (rows.length < batchSize) break;
    after = rows.at(-1)!.id;
  }
  // The accounts whose held differed from the map, each with its open holds in the same statement.
  for (let i = 0; i < recheck.length; i += batchSize) {
    const ids = recheck.slice(i, i + batchSize);
    const rows = await queryRows(
      db,
      sql`select ${accountColumns},
            coalesce((select sum(h.amount) from holds h where h.account_id = a.id and h.status = 'open'), 0)::text as open_holds
          from ledger_accounts a where a.id = any(${`{${ids.join(",")}}`}::uuid[]) order by a.code`,
      accountRow.extend({ open_holds: z.string() }),
    );
    for (const a of rows) checkAccount(a, a.open_holds);
  }
  // The foreign keys that named transactions(id) went with the table's partitioning (migration 0053, decision
  // 063: no key over all partitions leaves out created_at); every row that names a transaction still must.
  const orphans = await queryRows(
    db,
    sql`
      select r.source, r.transaction_id::text as transaction_id from (
        select 'chain_deposits' as source, transaction_id from chain_deposits
        union all select 'incoming_payments', transaction_id from incoming_payments
        union all select 'tag_payments', payer_transaction_id from tag_payments
        union all select 'tag_payments', payee_transaction_id from tag_payments
      ) r
      where r.transaction_id is not null and not exists (select 1 from transactions t where t.id = r.transaction_id)`,
    z.object({ source: z.string(), transaction_id: z.string() }),
  );
  for (const o of orphans)
    problems.push(`${o.source} names transaction ${o.transaction_id}, which does not exist`);
  return { ok: problems.length === 0, entries, accounts, problems };
}
