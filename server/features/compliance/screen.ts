import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { HitScoreParts, ScreeningPoint } from "@/contract/compliance";
import { type DbOrTx, queryRows, type Tx } from "@/server/db/client";
import { complianceCases, complianceHits, sanctionsAddresses } from "@/server/db/schema";
import { openCaseFor } from "@/server/features/compliance/cases";
import { entryKey, type SanctionsIndex } from "@/server/features/compliance/list-index";
import {
  type ListMatch,
  type NameCandidate,
  nameCandidates,
  type PartyType,
  scoreCandidates,
  searchIndex,
} from "@/server/features/compliance/list-search";
import { nameTokens } from "@/server/features/compliance/normalise-name";
import { activeSanctionsIndex } from "@/server/features/compliance/sanctions-index";

/**
 * One name to screen: its holder's type says which listed entries it can match (a customer is a person, a company
 * an entity, a payee's name unknown: null), and a date of birth, when known, is evidence for or against.
 */
export interface ScreenName {
  value: string;
  type: PartyType | null;
  dateOfBirth?: string | null;
}

/** What one screening looks at: names (each with its holder's type and date of birth when known) and addresses. */
export interface ScreenSubject {
  names?: ScreenName[];
  addresses?: string[];
}

export interface SanctionsHit {
  subjectType: "name" | "address";
  subject: string;
  matched: string;
  score: number;
  listVersion: number;
  listSource: string;
  entNum: number;
  programs: string;
  /** Why a name scored what it did (null for an address: it matches exactly or not at all). */
  scoreParts: HitScoreParts | null;
}

/**
 * The active list's entries that a subject matches: names at or above `threshold` (unless the list's date of
 * birth rules the person out), addresses exactly, whatever the case. No active list: no hits.
 */
export async function findSanctionsHits(
  db: DbOrTx,
  subject: ScreenSubject,
  threshold: number,
): Promise<SanctionsHit[]> {
  const index = await activeSanctionsIndex(db);
  if (!index) return [];
  const addresses = subjectAddresses(subject);
  const rows =
    addresses.length === 0
      ? []
      : await db
          .select()
          .from(sanctionsAddresses)
          .where(
            and(
              eq(sanctionsAddresses.listId, index.listId),
              inArray(
                sanctionsAddresses.addressKey,
                addresses.map((a) => a.toLowerCase()),
              ),
            ),
          );
  return [...nameHits(index, subject, threshold), ...addressHits(index, addresses, rows)];
}

/** The subject's addresses, trimmed, each once. */
function subjectAddresses(subject: ScreenSubject): string[] {
  return [...new Set((subject.addresses ?? []).map((a) => a.trim()).filter(Boolean))];
}

/** The subject's names matched in memory against the index (a transfer's payee, before its call). */
export function nameHits(index: SanctionsIndex, subject: ScreenSubject, threshold: number): SanctionsHit[] {
  return (subject.names ?? []).flatMap(({ value, type, dateOfBirth }) =>
    searchIndex(index, { name: value, dob: dateOfBirth ?? null, type }, threshold).map((match) =>
      nameHit(index, value, match),
    ),
  );
}

function nameHit(index: SanctionsIndex, subject: string, match: ListMatch): SanctionsHit {
  return {
    subjectType: "name",
    subject,
    matched: match.listedName,
    score: match.score,
    listVersion: index.version,
    listSource: match.source,
    entNum: match.entNum,
    programs: match.programs,
    scoreParts: scorePartsOf(match),
  };
}

/**
 * nameHits for many subjects at once (a re-screen batch, decision 062): a name, type and "date of birth known
 * or not" seen before in this screener reuses its candidates, and only the dates are weighed again. Same hits
 * as nameHits; its memory is the distinct names it saw, so one is made per batch.
 */
export function nameScreener(index: SanctionsIndex, threshold: number) {
  const seen = new Map<string, NameCandidate[]>();
  return (subject: ScreenSubject): SanctionsHit[] =>
    (subject.names ?? []).flatMap(({ value, type, dateOfBirth }) => {
      const dob = dateOfBirth ?? null;
      const key = `${type ?? ""}|${dob ? 1 : 0}|${value}`;
      let candidates = seen.get(key);
      if (!candidates) {
        candidates = nameCandidates(index, { name: value, type, dob }, threshold);
        seen.set(key, candidates);
      }
      return scoreCandidates(index, candidates, dob, threshold).map((match) => nameHit(index, value, match));
    });
}

/** The parts of a match as a hit keeps them (the one place the matcher's ScoreParts meet the stored shape). */
export function scorePartsOf(match: ListMatch): HitScoreParts {
  const { name, phonetic, dob, dobAdjustment, listedType, weakAlias } = match.parts;
  return { name, phonetic, dob, dobAdjustment, listedType, weakAlias };
}

/** A listed address's row: the columns address hits are made of (create_transfer_request answers them too). */
export const listedAddress = z.object({
  source: z.string(),
  entNum: z.number().int(),
  currency: z.string(),
  address: z.string(),
  addressKey: z.string(),
});
type ListedAddress = z.infer<typeof listedAddress>;

/** Hits for the listed rows found for the subject's addresses. */
export function addressHits(
  index: SanctionsIndex,
  addresses: string[],
  rows: ListedAddress[],
): SanctionsHit[] {
  return rows.map((row) => {
    const entry = index.entries.get(entryKey(row.source, row.entNum));
    return {
      subjectType: "address",
      subject: addresses.find((a) => a.toLowerCase() === row.addressKey) ?? row.address,
      matched: `${row.currency} ${row.address} (${entry?.name ?? "listed entity"})`,
      score: 1,
      listVersion: index.version,
      listSource: row.source,
      entNum: row.entNum,
      programs: entry?.programs ?? "",
      scoreParts: null,
    };
  });
}

function dedupeKey(
  userId: string,
  hit: SanctionsHit,
  transferId: string | null,
  depositId: string | null,
): string {
  const subject =
    hit.subjectType === "address" ? hit.subject.toLowerCase() : nameTokens(hit.subject).join(" ");
  const parts = [userId, hit.subjectType, subject, hit.listSource, hit.entNum, transferId ?? ""];
  // Every deposit from a listed sender is its own hit (its money waits on it); hits without one keep their keys.
  if (depositId) parts.push(`deposit:${depositId}`);
  return createHash("sha256").update(parts.join("\u0000")).digest("hex");
}

/**
 * Files hits against the customer's open case, opening one when there is none, in the caller's transaction.
 * The same customer, subject, list entry and transfer never make a second hit: re-screens are idempotent, and
 * a hit compliance has cleared does not come back with the next list. Answers the case and the new hits.
 */
export async function recordHits(
  tx: Tx,
  input: {
    userId: string;
    point: ScreeningPoint;
    hits: SanctionsHit[];
    transferId?: string | null;
    depositId?: string | null;
  },
): Promise<{ caseId: string | null; newHits: number }> {
  const transferId = input.transferId ?? null;
  const depositId = input.depositId ?? null;
  const fresh = [];
  for (const hit of input.hits) {
    const key = dedupeKey(input.userId, hit, transferId, depositId);
    const [seen] = await tx
      .select({ id: complianceHits.id })
      .from(complianceHits)
      .where(eq(complianceHits.dedupeKey, key));
    if (!seen) fresh.push({ hit, key });
  }
  if (fresh.length === 0) return { caseId: null, newHits: 0 };
  const caseId = await openCaseFor(tx, input.userId);
  let newHits = 0;
  for (const { hit, key } of fresh) {
    const inserted = await tx
      .insert(complianceHits)
      .values({
        caseId,
        userId: input.userId,
        dedupeKey: key,
        screeningPoint: input.point,
        transferId,
        depositId,
        ...hit,
      })
      .onConflictDoNothing()
      .returning({ id: complianceHits.id });
    newHits += inserted.length;
  }
  await tx.update(complianceCases).set({ updatedAt: sql`now()` }).where(eq(complianceCases.id, caseId));
  return { caseId, newHits };
}

/** One customer's hits in a batch (a re-screen): on the customer, or on one of their transfers. */
export interface HitsToRecord {
  userId: string;
  hits: SanctionsHit[];
  transferId?: string | null;
}

/**
 * recordHits for a whole batch in a few statements (the re-screen job, decision 053): the keys already on file in
 * one query, a case per customer with a new hit, the new hits in one insert. Deduplicated as recordHits is.
 */
export async function recordHitsInBulk(
  tx: Tx,
  point: ScreeningPoint,
  batch: HitsToRecord[],
): Promise<{ newHits: number; cases: number }> {
  const keyed = batch.flatMap(({ userId, hits, transferId }) =>
    hits.map((hit) => ({
      userId,
      hit,
      transferId: transferId ?? null,
      key: dedupeKey(userId, hit, transferId ?? null, null),
    })),
  );
  if (keyed.length === 0) return { newHits: 0, cases: 0 };
  const seen = new Set(
    (
      await tx
        .select({ key: complianceHits.dedupeKey })
        .from(complianceHits)
        .where(inArray(complianceHits.dedupeKey, [...new Set(keyed.map((k) => k.key))]))
    ).map((r) => r.key),
  );
  const fresh = new Map<string, (typeof keyed)[number]>();
  for (const k of keyed) if (!seen.has(k.key) && !fresh.has(k.key)) fresh.set(k.key, k);
  if (fresh.size === 0) return { newHits: 0, cases: 0 };
  const caseOf = new Map<string, string>();
  for (const userId of new Set([...fresh.values()].map((k) => k.userId))) {
    caseOf.set(userId, await openCaseFor(tx, userId));
  }
  const inserted = await tx
    .insert(complianceHits)
    .values(
      [...fresh.values()].map(({ userId, hit, transferId, key }) => ({
        caseId: caseOf.get(userId)!,
        userId,
        dedupeKey: key,
        screeningPoint: point,
        transferId,
        depositId: null,
        ...hit,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: complianceHits.id });
  await tx
    .update(complianceCases)
    .set({ updatedAt: sql`now()` })
    .where(inArray(complianceCases.id, [...new Set(caseOf.values())]));
  return { newHits: inserted.length, cases: caseOf.size };
}

/** Whether compliance has not yet decided a case of this customer. */
export async function hasOpenCase(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: complianceCases.id })
    .from(complianceCases)
    .where(and(eq(complianceCases.userId, userId), eq(complianceCases.status, "open")))
    .limit(1);
  return row !== undefined;
}

/**
 * Money of a customer with an open case that holds (a sanctions hit, or a blocking monitoring alert: decision
 * 031), or one decided anything but "clear", does not leave: the hold the transfers already have stays. The rule
 * is compliance_hold (server/db/functions/compliance-hold.sql).
 */
export async function hasComplianceHold(db: DbOrTx, userId: string | null): Promise<boolean> {
  if (!userId) return false;
  const [row] = await queryRows(
    db,
    sql`select compliance_hold(${userId}::uuid) as held`,
    z.object({ held: z.boolean() }),
  );
  return row?.held === true;
}
