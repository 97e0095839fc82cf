import type { Readable } from "node:stream";
import { and, eq, gt, sql } from "drizzle-orm";
import { type CompleteUploadResponse, KYC_MESSAGES, MAX_UPLOAD_BYTES } from "@/contract/kyc";
import type { AppDeps } from "@/server/app-deps";
import { uploads } from "@/server/db/schema";
import {
  dailyUploadLimitReached,
  ensureDailyUploadAllowance,
  takeUploadSlot,
} from "@/server/features/objects/upload-limits";
import { verifyToken } from "@/server/lib/crypto";
import { AppError } from "@/server/lib/errors";
import { SNIFF_BYTES, sniffContentType } from "@/server/lib/storage/sniff-content-type";
import { limitBytes, peekHead } from "@/server/lib/storage/upload-stream";
import { objectPathFor, type UploadRow } from "@/server/lib/storage/uploads";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const PAYLOAD = new RegExp(`^(${UUID})_(\\d{1,12})$`);

/**
 * Checks a local upload token before any body is read: a valid signature, not expired, issued to this user.
 * Returns the upload id. Cheap (no database), so strangers cannot make the server read a byte of the body.
 */
export function checkUploadToken(secret: string, token: string, userId: string, now = Date.now()): string {
  const payload = verifyToken(secret, token, `upload:${userId}`);
  const match = payload ? PAYLOAD.exec(payload) : null;
  if (!match) throw new AppError("FORBIDDEN", KYC_MESSAGES.uploadInvalid);
  if (Number(match[2]) * 1000 <= now) throw new AppError("FORBIDDEN", KYC_MESSAGES.uploadExpired);
  return match[1]!;
}

/** Marks the link's row as receiving, so a second PUT on the same link meanwhile is refused (409). */
async function claimUpload(deps: AppDeps, uploadId: string, userId: string): Promise<UploadRow> {
  const { db } = deps.database;
  const [claimed] = await db
    .update(uploads)
    .set({ status: "receiving" })
    .where(
      and(
        eq(uploads.id, uploadId),
        eq(uploads.userId, userId),
        eq(uploads.status, "pending"),
        gt(uploads.expiresAt, sql`now()`),
      ),
    )
    .returning();
  if (claimed) return claimed;
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, uploadId), eq(uploads.userId, userId)));
  if (!row) throw new AppError("FORBIDDEN", KYC_MESSAGES.uploadInvalid);
  if (row.status !== "pending") throw new AppError("CONFLICT", KYC_MESSAGES.uploadUsed);
  throw new AppError("FORBIDDEN", KYC_MESSAGES.uploadExpired);
}

/** A failed PUT gives the link back (it may be retried while it is valid). */
async function releaseUpload(deps: AppDeps, upload: UploadRow) {
  await deps.database.db
    .update(uploads)
    .set({ status: "pending" })
    .where(and(eq(uploads.id, upload.id), eq(uploads.status, "receiving")))
    .catch(() => {
      // Database gone: the row stays `receiving` and housekeeping removes it with the other unattached uploads.
    });
}

/**
 * Streams the bytes of a local upload into storage once: the first bytes must be an accepted type (the
 * declared type is ignored), at most 10 MB and what is left of the user's daily allowance, a few uploads per
 * user at a time. Memory stays at one chunk per upload; whatever was written of a refused or broken upload is
 * removed. Then the upload is complete and its link is spent.
 */
export async function receiveUpload(
  deps: AppDeps,
  userId: string,
  token: string,
  body: Readable,
  declaredLength: number | undefined,
): Promise<CompleteUploadResponse> {
  const uploadId = checkUploadToken(deps.config.sessionSecret, token, userId);
  if (declaredLength !== undefined && declaredLength > MAX_UPLOAD_BYTES)
    throw new AppError("PAYLOAD_TOO_LARGE", KYC_MESSAGES.fileTooLarge);
  if (declaredLength === 0) throw new AppError("BAD_REQUEST", KYC_MESSAGES.emptyFile);
  const slot = takeUploadSlot(deps, userId);
  try {
    const allowance = await ensureDailyUploadAllowance(deps, userId);
    const dailyMax = deps.config.uploads.dailyBytesPerUser;
    if (declaredLength !== undefined && declaredLength > allowance) throw dailyUploadLimitReached(dailyMax);
    const upload = await claimUpload(deps, uploadId, userId);
    try {
      return await storeUpload(deps, upload, body, declaredLength, allowance);
    } catch (err) {
      // Read and discard the rest (bounded by REQUEST_TIMEOUT_MS), so the client gets to read the answer;
      // Node does not drain a body the handler started reading.
      if (!body.readableEnded) body.resume();
      await releaseUpload(deps, upload);
      throw err;
    }
  } finally {
    slot.release();
  }
}

async function storeUpload(
  deps: AppDeps,
  upload: UploadRow,
  body: Readable,
  declaredLength: number | undefined,
  allowance: number,
): Promise<CompleteUploadResponse> {
  // Sniff before anything is written: a wrong type is refused after 16 bytes, not after 10 MB.
  const { head, ended } = await peekHead(body, SNIFF_BYTES);
  if (head.length === 0) throw new AppError("BAD_REQUEST", KYC_MESSAGES.emptyFile);
  const contentType = sniffContentType(head);
  if (!contentType) throw new AppError("UNSUPPORTED_MEDIA_TYPE", KYC_MESSAGES.unsupportedFile);

  const limit = Math.min(MAX_UPLOAD_BYTES, allowance);
  const tooLarge = () =>
    limit < MAX_UPLOAD_BYTES
      ? dailyUploadLimitReached(deps.config.uploads.dailyBytesPerUser)
      : new AppError("PAYLOAD_TOO_LARGE", KYC_MESSAGES.fileTooLarge);
  let size: number;
  if (ended) {
    if (head.length > limit) throw tooLarge();
    await deps.storage.put(upload.objectKey, head, contentType);
    size = head.length;
  } else {
    const counted = limitBytes(body, limit, tooLarge);
    await deps.storage.put(upload.objectKey, counted.stream, contentType, declaredLength);
    size = counted.counted();
  }

  try {
    await deps.database.db
      .update(uploads)
      .set({ status: "complete", contentType, sizeBytes: size, completedAt: new Date() })
      .where(eq(uploads.id, upload.id));
  } catch (err) {
    await deps.storage.delete(upload.objectKey).catch(() => {});
    throw err;
  }
  return { objectPath: objectPathFor(upload.objectKey), contentType, size };
}
