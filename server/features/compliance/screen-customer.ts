import type { ScreeningPoint } from "@/contract/compliance";
import type { AppDeps } from "@/server/app-deps";
import { findSanctionsHits, recordHits, type ScreenSubject } from "@/server/features/compliance/screen";

/**
 * Screens a customer at one of the screening points and files any hit, in its own transaction (used where
 * the customer's own action has already committed, like sign-up). Nothing is ever said to the customer.
 */
export async function screenCustomer(
  deps: AppDeps,
  userId: string,
  point: ScreeningPoint,
  subject: ScreenSubject,
  transferId: string | null = null,
): Promise<number> {
  const { db } = deps.database;
  const hits = await findSanctionsHits(db, subject, deps.config.sanctionsNameThreshold);
  if (hits.length === 0) return 0;
  const { newHits } = await db.transaction((tx) => recordHits(tx, { userId, point, hits, transferId }));
  return newHits;
}
