import { createHash } from "node:crypto";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { ScreeningPoint } from "@/contract/compliance";
import type { DbOrTx, Tx } from "@/server/db/client";
import { complianceCases, complianceHits, sanctionsAddresses } from "@/server/db/schema";
import { openCaseFor } from "@/server/features/compliance/cases";
import { birthDateCompatible, nameScore } from "@/server/features/compliance/name-match";
import { nameTokens } from "@/server/features/compliance/normalise-name";
import { activeSanctionsIndex, entryKey } from "@/server/features/compliance/sanctions-index";

/** What one screening looks at: a person's names (with a date of birth when known) and addresses. */
export interface ScreenSubject {
  names?: { value: string; dateOfBirth?: string | null }[];
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
  const hits: SanctionsHit[] = [];
  for (const { value, dateOfBirth } of subject.names ?? []) {
    const tokens = nameTokens(value);
    if (tokens.length === 0) continue;
    const best = new Map<string, SanctionsHit>();
    const candidates = new Set<number>();
    for (const token of tokens) for (const at of index.byInitial.get(token[0]!) ?? []) candidates.add(at);
    for (const at of candidates) {
      const listed = index.names[at]!;
      const score = nameScore(tokens, listed.tokens, listed.surname);
      if (score < threshold) continue;
      const key = entryKey(listed.source, listed.entNum);
      const entry = index.entries.get(key);
      if (!birthDateCompatible(dateOfBirth, entry?.birthDates ?? [])) continue;
      if ((best.get(key)?.score ?? 0) >= score) continue;
      best.set(key, {
        subjectType: "name",
        subject: value,
        matched: listed.name,
        score: Math.round(score * 1000) / 1000,
        listVersion: index.version,
        listSource: listed.source,
        entNum: listed.entNum,
        programs: entry?.programs ?? "",
      });
    }
    hits.push(...best.values());
  }
  const addresses = [...new Set((subject.addresses ?? []).map((a) => a.trim()).filter(Boolean))];
  if (addresses.length > 0) {
    const rows = await db
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
    for (const row of rows) {
      const entry = index.entries.get(entryKey(row.source, row.entNum));
      hits.push({
        subjectType: "address",
        subject: addresses.find((a) => a.toLowerCase() === row.addressKey) ?? row.address,
        matched: `${row.currency} ${row.address} (${entry?.name ?? "listed entity"})`,
        score: 1,
        listVersion: index.version,
        listSource: row.source,
        entNum: row.entNum,
        programs: entry?.programs ?? "",
      });
    }
  }
  return hits;
}

function dedupeKey(userId: string, hit: SanctionsHit, transferId: string | null): string {
  const subject =
    hit.subjectType === "address" ? hit.subject.toLowerCase() : nameTokens(hit.subject).join(" ");
  return createHash("sha256")
    .update([userId, hit.subjectType, subject, hit.listSource, hit.entNum, transferId ?? ""].join("\u0000"))
    .digest("hex");
}

/**
 * Files hits against the customer's open case, opening one when there is none, in the caller's transaction.
 * The same customer, subject, list entry and transfer never make a second hit: re-screens are idempotent, and
 * a hit compliance has cleared does not come back with the next list. Answers the case and the new hits.
 */
export async function recordHits(
  tx: Tx,
  input: { userId: string; point: ScreeningPoint; hits: SanctionsHit[]; transferId?: string | null },
): Promise<{ caseId: string | null; newHits: number }> {
  const transferId = input.transferId ?? null;
  const fresh = [];
  for (const hit of input.hits) {
    const key = dedupeKey(input.userId, hit, transferId);
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
        ...hit,
      })
      .onConflictDoNothing()
      .returning({ id: complianceHits.id });
    newHits += inserted.length;
  }
  await tx.update(complianceCases).set({ updatedAt: sql`now()` }).where(eq(complianceCases.id, caseId));
  return { caseId, newHits };
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
 * Money of a customer with an open case (or a confirmed match) does not leave: the hold the transfers already
 * have stays. An open case holds once it has a sanctions hit or a blocking monitoring alert: one opened by
 * monitoring alerts that do not block only asks compliance to look (decision 031).
 */
export async function hasComplianceHold(db: DbOrTx, userId: string | null): Promise<boolean> {
  if (!userId) return false;
  const [row] = await db
    .select({ id: complianceCases.id })
    .from(complianceCases)
    .where(
      and(
        eq(complianceCases.userId, userId),
        or(
          eq(complianceCases.status, "confirmed"),
          and(
            eq(complianceCases.status, "open"),
            sql`(exists (select 1 from compliance_hits h where h.case_id = ${complianceCases.id})
              or exists (select 1 from monitoring_alerts a where a.case_id = ${complianceCases.id} and a.blocking))`,
          ),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}
