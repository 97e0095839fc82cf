import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import {
  kycApplications,
  sanctionsLists,
  savedRecipients,
  transferRequests,
  users,
} from "@/server/db/schema";
import { findSanctionsHits, recordHits, type ScreenSubject } from "@/server/features/compliance/screen";

const BATCH = 200;

export interface RescreenReport {
  customers: number;
  addresses: number;
  newHits: number;
}

/**
 * After a new list: every customer's names (sign-up and current application, with the date of birth) and
 * every saved or in-flight address again. Hits already on file are not filed twice, so running it again
 * changes nothing.
 */
export async function rescreenEveryone(db: Db, threshold: number): Promise<RescreenReport> {
  const report: RescreenReport = { customers: 0, addresses: 0, newHits: 0 };
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const customers = await db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(and(sql`${users.id} > ${after}::uuid`, sql`cardinality(${users.staffRoles}) = 0`))
      .orderBy(users.id)
      .limit(BATCH);
    if (customers.length === 0) break;
    after = customers[customers.length - 1]!.id;
    const ids = customers.map((c) => c.id);
    const [applications, recipients, transfers] = await Promise.all([
      db
        .select()
        .from(kycApplications)
        .where(and(inArray(kycApplications.userId, ids), isNull(kycApplications.supersededAt))),
      db.select().from(savedRecipients).where(inArray(savedRecipients.userId, ids)),
      db
        .select()
        .from(transferRequests)
        .where(
          and(
            inArray(transferRequests.userId, ids),
            inArray(transferRequests.status, ["pending", "processing"]),
          ),
        ),
    ]);
    for (const customer of customers) {
      const kyc = applications.find((a) => a.userId === customer.id);
      const subject: ScreenSubject = {
        names: customerNames(customer, kyc),
        addresses: recipients.filter((r) => r.userId === customer.id).map((r) => r.address),
      };
      report.customers++;
      report.addresses += subject.addresses!.length;
      const hits = await findSanctionsHits(db, subject, threshold);
      const own = transfers.filter((t) => t.userId === customer.id);
      const transferHits = await Promise.all(
        own.map(async (t) => ({
          transferId: t.id,
          hits: await findSanctionsHits(
            db,
            { names: [{ value: t.recipientName }], addresses: [t.cryptoAddress] },
            threshold,
          ),
        })),
      );
      report.addresses += own.length;
      if (hits.length === 0 && transferHits.every((t) => t.hits.length === 0)) continue;
      await db.transaction(async (tx) => {
        report.newHits += (await recordHits(tx, { userId: customer.id, point: "rescreen", hits })).newHits;
        for (const t of transferHits) {
          if (t.hits.length === 0) continue;
          const recorded = await recordHits(tx, {
            userId: customer.id,
            point: "rescreen",
            hits: t.hits,
            transferId: t.transferId,
          });
          report.newHits += recorded.newHits;
        }
      });
    }
  }
  await db.update(sanctionsLists).set({ rescreenedAt: sql`now()` }).where(eq(sanctionsLists.isActive, true));
  return report;
}

/** The names a customer is screened by: the sign-up name and the current application's (and company). */
export function customerNames(
  user: { firstName: string; lastName: string },
  kyc?: { firstName: string; lastName: string; companyName: string | null; dateOfBirth: string | null },
): { value: string; dateOfBirth?: string | null }[] {
  const dateOfBirth = kyc?.dateOfBirth ?? null;
  const names = [{ value: `${user.firstName} ${user.lastName}`, dateOfBirth }];
  if (kyc) {
    const applied = `${kyc.firstName} ${kyc.lastName}`;
    if (applied.toLowerCase() !== names[0]!.value.toLowerCase()) names.push({ value: applied, dateOfBirth });
    if (kyc.companyName) names.push({ value: kyc.companyName, dateOfBirth: null });
  }
  return names;
}
