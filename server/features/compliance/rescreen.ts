import { EventEmitter } from "node:events";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { RescreenRunView } from "@/contract/compliance";
import { type Db, type DbOrTx, queryRows } from "@/server/db/client";
import {
  kycApplications,
  rescreenRuns,
  sanctionsAddresses,
  sanctionsLists,
  savedRecipients,
  transferRequests,
} from "@/server/db/schema";
import type { SanctionsIndex } from "@/server/features/compliance/list-index";
import { activeSanctionsIndex } from "@/server/features/compliance/sanctions-index";
import {
  addressHits,
  type HitsToRecord,
  nameScreener,
  recordHitsInBulk,
  type ScreenName,
} from "@/server/features/compliance/screen";
import type { LoopSpec } from "@/server/jobs/loop";

/** Customers per batch: one transaction reads, screens and files them and moves the run's cursor (decision 053). */
export const RESCREEN_BATCH = 1000;

export interface RescreenReport {
  customers: number;
  addresses: number;
  newHits: number;
}

/**
 * The names a customer is screened by, as a person: the sign-up name and the current application's, with the
 * application's date of birth, and its company as an entity. Without an application there is no date of birth and
 * nothing is screened by name (decision 053: a name alone opens nothing that holds money; the KYC decides).
 */
export function customerNames(
  user: { firstName: string; lastName: string },
  kyc?: {
    firstName: string;
    lastName: string;
    companyName: string | null;
    dateOfBirth: string | null;
  } | null,
): ScreenName[] {
  if (!kyc) return [];
  const dateOfBirth = kyc.dateOfBirth ?? null;
  const signedUpAs = `${user.firstName} ${user.lastName}`;
  const names: ScreenName[] = [{ value: signedUpAs, type: "person", dateOfBirth }];
  const applied = `${kyc.firstName} ${kyc.lastName}`;
  if (applied.toLowerCase() !== signedUpAs.toLowerCase())
    names.push({ value: applied, type: "person", dateOfBirth });
  if (kyc.companyName) names.push({ value: kyc.companyName, type: "entity", dateOfBirth: null });
  return names;
}

// A load in this process wakes the loop at once; another instance's load is seen at the next poll.
const signal = new EventEmitter();
export function wakeRescreen(): void {
  signal.emit("wake");
}

/** Queues the re-screen of a list just loaded, in the load's transaction (one run per list version). */
export async function queueRescreen(tx: DbOrTx, listId: string): Promise<void> {
  await tx.insert(rescreenRuns).values({ listId }).onConflictDoNothing();
}

const CUSTOMER = sql`cardinality(u.staff_roles) = 0`;

/**
 * One batch of customers after `after` (by id), screened in memory against `index`: their names (with the date
 * of birth of their application), saved addresses and in-flight transfers, read in a few set-based queries.
 */
export async function screenBatch(
  tx: DbOrTx,
  index: SanctionsIndex,
  threshold: number,
  after: string | null,
  size: number,
): Promise<{ customers: number; addresses: number; last: string | null; toRecord: HitsToRecord[] }> {
  const customers = await queryRows(
    tx,
    sql`select u.id, u.first_name as "firstName", u.last_name as "lastName" from users u
        where ${CUSTOMER} and u.id > ${after ?? "00000000-0000-0000-0000-000000000000"}::uuid
        order by u.id limit ${size}`,
    z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }),
  );
  if (customers.length === 0) return { customers: 0, addresses: 0, last: null, toRecord: [] };
  const ids = customers.map((c) => c.id);
  // One after another: a transaction's queries share its one connection.
  const applications = await tx
    .select({
      userId: kycApplications.userId,
      firstName: kycApplications.firstName,
      lastName: kycApplications.lastName,
      companyName: kycApplications.companyName,
      dateOfBirth: kycApplications.dateOfBirth,
    })
    .from(kycApplications)
    .where(and(inArray(kycApplications.userId, ids), isNull(kycApplications.supersededAt)));
  const recipients = await tx
    .select({ userId: savedRecipients.userId, address: savedRecipients.address })
    .from(savedRecipients)
    .where(inArray(savedRecipients.userId, ids));
  const transfers = await tx
    .select({
      id: transferRequests.id,
      userId: transferRequests.userId,
      recipientName: transferRequests.recipientName,
      cryptoAddress: transferRequests.cryptoAddress,
    })
    .from(transferRequests)
    .where(
      and(inArray(transferRequests.userId, ids), inArray(transferRequests.status, ["pending", "processing"])),
    );
  const wanted = new Set<string>();
  for (const r of recipients) wanted.add(r.address.trim().toLowerCase());
  for (const t of transfers) wanted.add(t.cryptoAddress.trim().toLowerCase());
  wanted.delete("");
  const listed =
    wanted.size === 0
      ? []
      : await tx
          .select({
            source: sanctionsAddresses.source,
            entNum: sanctionsAddresses.entNum,
            currency: sanctionsAddresses.currency,
            address: sanctionsAddresses.address,
            addressKey: sanctionsAddresses.addressKey,
          })
          .from(sanctionsAddresses)
          .where(
            and(
              eq(sanctionsAddresses.listId, index.listId),
              inArray(sanctionsAddresses.addressKey, [...wanted]),
            ),
          );
  const listedByKey = new Map<string, typeof listed>();
  for (const row of listed)
    listedByKey.set(row.addressKey, [...(listedByKey.get(row.addressKey) ?? []), row]);
  const hitsOfAddresses = (addresses: string[]) => {
    const own = [...new Set(addresses.map((a) => a.trim()).filter(Boolean))];
    const rows = own.flatMap((a) => listedByKey.get(a.toLowerCase()) ?? []);
    return rows.length === 0 ? [] : addressHits(index, own, rows);
  };

  const kycOf = new Map(applications.map((a) => [a.userId, a]));
  const recipientsOf = new Map<string, string[]>();
  for (const r of recipients) recipientsOf.set(r.userId, [...(recipientsOf.get(r.userId) ?? []), r.address]);
  // Many customers share a full name (and payees repeat): each distinct one is looked up once per batch.
  const nameHits = nameScreener(index, threshold);
  const toRecord: HitsToRecord[] = [];
  let addresses = 0;
  for (const customer of customers) {
    const saved = recipientsOf.get(customer.id) ?? [];
    addresses += saved.length;
    const hits = [
      ...nameHits({ names: customerNames(customer, kycOf.get(customer.id)) }),
      ...hitsOfAddresses(saved),
    ];
    if (hits.length > 0) toRecord.push({ userId: customer.id, hits });
  }
  for (const t of transfers) {
    addresses += 1;
    const hits = [
      ...nameHits({ names: [{ value: t.recipientName, type: null }] }),
      ...hitsOfAddresses([t.cryptoAddress]),
    ];
    if (hits.length > 0 && t.userId) toRecord.push({ userId: t.userId, hits, transferId: t.id });
  }
  return { customers: customers.length, addresses, last: customers[customers.length - 1]!.id, toRecord };
}

type RunRow = typeof rescreenRuns.$inferSelect;

/**
 * One pass of the re-screen job: the oldest unfinished run (locked, so one instance works it at a time), one batch
 * of customers after its cursor screened and filed, and the cursor moved, all in one transaction. A kill -9
 * loses at most the batch in flight, which the next pass does again; hits are deduplicated by their key, so
 * nothing is filed twice. A run whose list was replaced meanwhile is superseded (the new list has its own run).
 */
export async function rescreenPass(
  db: Db,
  threshold: number,
  batchSize = RESCREEN_BATCH,
): Promise<{ done: number; more: boolean }> {
  // The index before the transaction: building it reads through the pool, and the embedded database has one
  // connection, which the open transaction would hold.
  const index = await activeSanctionsIndex(db);
  return db.transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(rescreenRuns)
      .where(inArray(rescreenRuns.status, ["queued", "running"]))
      .orderBy(rescreenRuns.queuedAt, rescreenRuns.id)
      .limit(1)
      .for("update", { skipLocked: true });
    if (!run) return { done: 0, more: false };
    const [active] = await tx
      .select({ id: sanctionsLists.id, version: sanctionsLists.version })
      .from(sanctionsLists)
      .where(eq(sanctionsLists.isActive, true));
    if (active?.id !== run.listId) {
      await tx
        .update(rescreenRuns)
        .set({ status: "superseded", finishedAt: sql`now()` })
        .where(eq(rescreenRuns.id, run.id));
      return { done: 0, more: true };
    }
    if (run.status === "queued") {
      const [{ total }] = (await queryRows(
        tx,
        sql`select count(*)::int as total from users u where ${CUSTOMER}`,
        z.object({ total: z.number() }),
      )) as [{ total: number }];
      await tx
        .update(rescreenRuns)
        .set({ status: "running", startedAt: sql`now()`, total })
        .where(eq(rescreenRuns.id, run.id));
    }
    // A list loaded between the index's read and this transaction: the next pass reads it again.
    if (!index || index.listId !== active.id) return { done: 0, more: true };
    const batch = await screenBatch(tx, index, threshold, run.cursor, batchSize);
    const { newHits } = await recordHitsInBulk(tx, "rescreen", batch.toRecord);
    const finished = batch.customers < batchSize;
    await tx
      .update(rescreenRuns)
      .set({
        cursor: batch.last ?? run.cursor,
        customers: sql`${rescreenRuns.customers} + ${batch.customers}`,
        addresses: sql`${rescreenRuns.addresses} + ${batch.addresses}`,
        newHits: sql`${rescreenRuns.newHits} + ${newHits}`,
        ...(finished ? { status: "done" as const, finishedAt: sql`now()` } : {}),
      })
      .where(eq(rescreenRuns.id, run.id));
    if (finished) {
      await tx
        .update(sanctionsLists)
        .set({ rescreenedAt: sql`now()` })
        .where(eq(sanctionsLists.id, run.listId));
    }
    return { done: batch.customers, more: !finished };
  });
}

/**
 * Runs the re-screen job's passes here until no run is left (the CLI, tests, the bench): the same passes the jobs
 * room runs, so a loop elsewhere working the same run only shares the work. Answers the list's run at the end.
 */
export async function runRescreenToEnd(
  db: Db,
  threshold: number,
  listId: string,
  options: { batchSize?: number; onBatch?: (run: RescreenRunView) => void } = {},
): Promise<RescreenRunView> {
  for (;;) {
    const { done, more } = await rescreenPass(db, threshold, options.batchSize);
    const run = await findRescreenRun(db, listId);
    if (!run) throw new Error(`no re-screen run for list ${listId}`);
    if (done > 0) options.onBatch?.(run);
    if (run.status === "done" || run.status === "superseded") return run;
    // Another process holds the run's lock (it works the batch): wait for it rather than spin.
    if (!more) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const toView = (row: RunRow & { listVersion: number }): RescreenRunView => ({
  id: row.id,
  listId: row.listId,
  listVersion: row.listVersion,
  status: row.status,
  total: row.total,
  customers: row.customers,
  addresses: row.addresses,
  newHits: row.newHits,
  queuedAt: row.queuedAt.toISOString(),
  startedAt: row.startedAt?.toISOString() ?? null,
  finishedAt: row.finishedAt?.toISOString() ?? null,
});

const runColumns = { run: rescreenRuns, listVersion: sanctionsLists.version };

export async function findRescreenRun(db: DbOrTx, listId: string): Promise<RescreenRunView | null> {
  const [row] = await db
    .select(runColumns)
    .from(rescreenRuns)
    .innerJoin(sanctionsLists, eq(sanctionsLists.id, rescreenRuns.listId))
    .where(eq(rescreenRuns.listId, listId));
  return row ? toView({ ...row.run, listVersion: row.listVersion }) : null;
}

/** The latest runs, newest first: what the lists page shows. */
export async function findRescreenRuns(db: DbOrTx, limit = 10): Promise<RescreenRunView[]> {
  const rows = await db
    .select(runColumns)
    .from(rescreenRuns)
    .innerJoin(sanctionsLists, eq(sanctionsLists.id, rescreenRuns.listId))
    .orderBy(desc(rescreenRuns.queuedAt), desc(rescreenRuns.id))
    .limit(limit);
  return rows.map((row) => toView({ ...row.run, listVersion: row.listVersion }));
}

/** The re-screen job in the jobs room (loops.ts): a batch a pass, at once while a run has more, else a poll. */
export function rescreenLoop(db: Db, threshold: number, log: FastifyBaseLogger, everyMs = 2000): LoopSpec {
  return {
    name: "rescreen",
    everyMs,
    wakeOn(wake) {
      signal.on("wake", wake);
      return () => signal.off("wake", wake);
    },
    async pass() {
      const result = await rescreenPass(db, threshold);
      if (result.done > 0 && !result.more) log.info({ job: "rescreen" }, "rescreen: a run finished");
      return result;
    },
  };
}
