import {
  ACCEPTED_CONTENT_TYPES,
  type DocumentType,
  KYC_MESSAGES,
  type StoredContentType,
} from "@/contract/kyc";
import type { AppDeps } from "@/server/app-deps";
import { AppError } from "@/server/lib/errors";
import { ensureUploadVerified, findOwnUpload, objectPathFor } from "@/server/lib/storage/uploads";

export type DocumentRefs = Partial<Record<DocumentType, string | null>>;

/**
 * Turns the document values of a form into checked object paths: each must be a file this user uploaded,
 * whose bytes passed the size and type checks, of a type the field accepts (licences: images only).
 */
export async function resolveDocuments(
  deps: AppDeps,
  userId: string,
  refs: DocumentRefs,
): Promise<DocumentRefs> {
  const { db } = deps.database;
  const resolved: DocumentRefs = {};
  for (const [documentType, ref] of Object.entries(refs) as [DocumentType, string | null | undefined][]) {
    if (!ref) continue;
    const upload = await findOwnUpload(db, userId, ref);
    if (!upload) throw new AppError("BAD_REQUEST", KYC_MESSAGES.documentNotFound, { documentType });
    const verified = await ensureUploadVerified(db, deps.storage, upload).catch((err: unknown) => {
      if (err instanceof AppError)
        throw new AppError(err.reason ?? err.code, err.message, { ...err.details, documentType });
      throw err;
    });
    if (!ACCEPTED_CONTENT_TYPES[documentType].includes(verified.contentType as StoredContentType)) {
      const message = documentType.startsWith("drivingLicense")
        ? KYC_MESSAGES.licenseImagesOnly
        : KYC_MESSAGES.documentImageOrPdf;
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", message, { documentType });
    }
    resolved[documentType] = objectPathFor(verified.objectKey);
  }
  return resolved;
}
