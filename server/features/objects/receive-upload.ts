import { and, eq } from "drizzle-orm";
import { type CompleteUploadResponse, KYC_MESSAGES, MAX_UPLOAD_BYTES } from "@/contract/kyc";
import type { AppDeps } from "@/server/app";
import { uploads } from "@/server/db/schema";
import { verifyToken } from "@/server/lib/crypto";
import { AppError } from "@/server/lib/errors";
import { sniffContentType } from "@/server/lib/storage/sniff-content-type";
import { objectPathFor } from "@/server/lib/storage/uploads";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const PAYLOAD = new RegExp(`^(${UUID})_(\\d{1,12})$`);

/**
 * Checks a local upload token before any body is read: a valid signature, not expired, issued to this user.
 * Returns the upload id. Cheap (no database), so strangers cannot make the server buffer 10 MB.
 */
export function checkUploadToken(secret: string, token: string, userId: string, now = Date.now()): string {
  const payload = verifyToken(secret, token, `upload:${userId}`);
  const match = payload ? PAYLOAD.exec(payload) : null;
  if (!match) throw new AppError("FORBIDDEN", KYC_MESSAGES.uploadInvalid);
  if (Number(match[2]) * 1000 <= now) throw new AppError("FORBIDDEN", KYC_MESSAGES.uploadExpired);
  return match[1]!;
}

/**
 * Stores the bytes of a local upload once: ≤ 10 MB, magic bytes of an accepted type (the declared type is
 * ignored), then the upload is complete and its link is spent.
 */
export async function receiveUpload(
  deps: AppDeps,
  userId: string,
  token: string,
  body: Buffer | undefined,
): Promise<CompleteUploadResponse> {
  const uploadId = checkUploadToken(deps.config.sessionSecret, token, userId);
  if (!body || body.length === 0) throw new AppError("BAD_REQUEST", KYC_MESSAGES.emptyFile);
  if (body.length > MAX_UPLOAD_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", KYC_MESSAGES.fileTooLarge);
  const contentType = sniffContentType(body);
  if (!contentType) throw new AppError("UNSUPPORTED_MEDIA_TYPE", KYC_MESSAGES.unsupportedFile);

  return deps.database.db.transaction(async (tx) => {
    // Lock the row: two PUTs racing on one link must not both store a file.
    const [upload] = await tx
      .select()
      .from(uploads)
      .where(and(eq(uploads.id, uploadId), eq(uploads.userId, userId)))
      .for("update");
    if (!upload) throw new AppError("FORBIDDEN", KYC_MESSAGES.uploadInvalid);
    if (upload.status !== "pending") throw new AppError("CONFLICT", KYC_MESSAGES.uploadUsed);
    if (upload.expiresAt.getTime() <= Date.now()) throw new AppError("FORBIDDEN", KYC_MESSAGES.uploadExpired);
    await deps.storage.put(upload.objectKey, body, contentType);
    await tx
      .update(uploads)
      .set({ status: "complete", contentType, sizeBytes: body.length, completedAt: new Date() })
      .where(eq(uploads.id, upload.id));
    return { objectPath: objectPathFor(upload.objectKey), contentType, size: body.length };
  });
}
