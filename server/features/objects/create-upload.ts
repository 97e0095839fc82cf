import { randomUUID } from "node:crypto";
import { type CreateUploadResponse, MAX_UPLOAD_BYTES } from "@/contract/kyc";
import type { AppDeps } from "@/server/app-deps";
import { uploads } from "@/server/db/schema";
import { ensureDailyUploadAllowance } from "@/server/features/objects/upload-limits";
import { signToken } from "@/server/lib/crypto";
import { objectPathFor, UPLOAD_TTL_SECONDS } from "@/server/lib/storage/uploads";

export const UPLOAD_ROUTE_PREFIX = "/api/objects/upload/";

/** The signed part of a local upload URL: upload id and expiry, signed for its owner, so it works once, for one user, briefly. */
export function uploadToken(secret: string, uploadId: string, userId: string, expiresAt: Date): string {
  return signToken(secret, `${uploadId}_${Math.floor(expiresAt.getTime() / 1000)}`, `upload:${userId}`);
}

/**
 * Reserves an object for `userId` and hands out where to PUT it: a presigned S3 URL, or (local disk) the app's
 * own signed upload route. The row is written first, so only its owner can ever complete, attach or read it.
 */
export async function createUpload(deps: AppDeps, userId: string): Promise<CreateUploadResponse> {
  // With S3 the browser writes straight to the bucket, so this is where a user past the day's bytes is stopped.
  await ensureDailyUploadAllowance(deps, userId);
  const id = randomUUID();
  const objectKey = `uploads/${id}`;
  const expiresAt = new Date(Date.now() + UPLOAD_TTL_SECONDS * 1000);
  await deps.database.db.insert(uploads).values({ id, userId, objectKey, expiresAt });
  const presigned = await deps.storage.presignUpload(objectKey, UPLOAD_TTL_SECONDS);
  return {
    uploadURL:
      presigned ?? `${UPLOAD_ROUTE_PREFIX}${uploadToken(deps.config.sessionSecret, id, userId, expiresAt)}`,
    objectPath: objectPathFor(objectKey),
    method: "PUT",
    expiresAt: expiresAt.toISOString(),
    maxBytes: MAX_UPLOAD_BYTES,
  };
}
