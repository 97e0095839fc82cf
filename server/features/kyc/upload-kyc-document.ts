import { and, eq, isNull, sql } from "drizzle-orm";
import { KYC_MESSAGES, type UploadDocumentInput, type UploadDocumentResponse } from "@/contract/kyc";
import type { AppDeps } from "@/server/app-deps";
import { kycApplications } from "@/server/db/schema";
import { toKycApplication } from "@/server/features/kyc/kyc-views";
import { resolveDocuments } from "@/server/features/kyc/resolve-documents";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";

const notEditable = () => new AppError("kyc_not_editable", KYC_MESSAGES.applicationLocked);

/** Attaches (or replaces) one document of the user's current application while it is still pending. */
export async function uploadKycDocument(
  deps: AppDeps,
  userId: string,
  input: UploadDocumentInput,
): Promise<UploadDocumentResponse> {
  const { db } = deps.database;
  const current = and(eq(kycApplications.userId, userId), isNull(kycApplications.supersededAt));
  const [kyc] = await db.select().from(kycApplications).where(current);
  if (!kyc) throw new AppError("NOT_FOUND", KYC_MESSAGES.noApplication);
  if (kyc.status !== "pending") throw notEditable();
  if (
    kyc.accountType === "personal" &&
    (input.documentType === "llcDocument" || input.documentType === "einDocument")
  ) {
    throw new AppError("BAD_REQUEST", KYC_MESSAGES.documentNotForPersonal, {
      documentType: input.documentType,
    });
  }
  const resolved = await resolveDocuments(deps, userId, { [input.documentType]: input.documentUrl });
  const objectPath = resolved[input.documentType]!;

  const updated = await db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(kycApplications)
      .where(eq(kycApplications.id, kyc.id))
      .for("update");
    // Re-checked under the lock: an admin may have decided, or the user resubmitted, meanwhile.
    if (locked?.status !== "pending" || locked.supersededAt) throw notEditable();
    const [row] = await tx
      .update(kycApplications)
      .set({ [input.documentType]: objectPath, updatedAt: sql`now()` })
      .where(eq(kycApplications.id, kyc.id))
      .returning();
    await writeAudit(tx, {
      actorId: userId,
      action: "kyc.document_upload",
      targetType: "kyc_application",
      targetId: kyc.id,
      before: { [input.documentType]: locked[input.documentType] },
      after: { [input.documentType]: objectPath },
    });
    return row!;
  });
  return { message: KYC_MESSAGES.documentUploaded, kyc: toKycApplication(updated) };
}
