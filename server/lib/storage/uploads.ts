import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { KYC_MESSAGES, MAX_UPLOAD_BYTES } from "@/contract/kyc";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { uploads } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { SNIFF_BYTES, sniffContentType } from "@/server/lib/storage/sniff-content-type";
import { OBJECT_KEY_PATTERN, type ObjectStorage } from "@/server/lib/storage/storage";

/** Upload URLs (signed tokens or presigned S3 URLs) live this long. */
export const UPLOAD_TTL_SECONDS = 15 * 60;

export type UploadRow = typeof uploads.$inferSelect;

export const objectPathFor = (key: string) => `/objects/${key}`;

/** `/objects/uploads/<uuid>` → `uploads/<uuid>`; null for anything else (including traversal attempts). */
export function objectKeyFromPath(objectPath: string): string | null {
  if (!objectPath.startsWith("/objects/")) return null;
  const key = objectPath.slice("/objects/".length);
  return OBJECT_KEY_PATTERN.test(key) ? key : null;
}

/** The upload behind an object path, only when `userId` owns it. */
export async function findOwnUpload(
  db: DbOrTx,
  userId: string,
  objectPath: string,
): Promise<UploadRow | null> {
  const key = objectKeyFromPath(objectPath);
  if (!key) return null;
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.objectKey, key), eq(uploads.userId, userId)));
  return row ?? null;
}

async function rejectUpload(
  db: DbOrTx,
  storage: ObjectStorage,
  upload: UploadRow,
  error: AppError,
): Promise<never> {
  await storage.delete(upload.objectKey);
  await db.update(uploads).set({ status: "rejected" }).where(eq(uploads.id, upload.id));
  throw error;
}

/**
 * Makes sure the bytes behind an upload were checked: size ≤ 10 MB and magic bytes of an accepted type.
 * On local disk the app checked them as they arrived. With S3 the browser wrote straight to the bucket, so
 * the object is checked here (and re-checked if it changed since); a bad object is deleted and refused.
 */
export async function ensureUploadVerified(
  db: DbOrTx,
  storage: ObjectStorage,
  upload: UploadRow,
  now = new Date(),
): Promise<UploadRow> {
  if (upload.status === "rejected") throw new AppError("BAD_REQUEST", KYC_MESSAGES.documentNotFound);
  const notThere = () =>
    upload.status === "pending" && upload.expiresAt <= now
      ? new AppError("BAD_REQUEST", KYC_MESSAGES.uploadExpired)
      : new AppError(
          "BAD_REQUEST",
          upload.status === "pending" || upload.status === "receiving"
            ? KYC_MESSAGES.uploadIncomplete
            : KYC_MESSAGES.documentNotFound,
        );

  if (storage.kind === "local") {
    if (upload.status !== "complete") throw notThere();
    return upload;
  }

  const info = await storage.stat(upload.objectKey);
  if (!info) throw notThere();
  if (upload.status === "complete" && info.etag && info.etag === upload.storageEtag) return upload;
  if (info.size > MAX_UPLOAD_BYTES) {
    return rejectUpload(db, storage, upload, new AppError("PAYLOAD_TOO_LARGE", KYC_MESSAGES.fileTooLarge));
  }
  if (info.size === 0)
    return rejectUpload(db, storage, upload, new AppError("BAD_REQUEST", KYC_MESSAGES.emptyFile));
  const contentType = sniffContentType(await storage.readStart(upload.objectKey, SNIFF_BYTES));
  if (!contentType) {
    return rejectUpload(
      db,
      storage,
      upload,
      new AppError("UNSUPPORTED_MEDIA_TYPE", KYC_MESSAGES.unsupportedFile),
    );
  }
  const [row] = await db
    .update(uploads)
    .set({ status: "complete", contentType, sizeBytes: info.size, storageEtag: info.etag, completedAt: now })
    .where(eq(uploads.id, upload.id))
    .returning();
  return row!;
}

/** Uploads never attached to a KYC application are deleted this long after they were asked for. */
export const UNATTACHED_UPLOAD_HOURS = 24;
const SWEEP_BATCH = 100;

/**
 * Deletes uploads older than a day that no KYC application (current, superseded or rejected) names, object
 * and row: abandoned and abusive uploads stop taking disk. Each batch deletes its rows and then their objects
 * in one transaction, so an object that cannot be deleted (storage down) keeps its row and is retried at the
 * next sweep instead of being orphaned. Returns how many were deleted.
 */
export async function sweepUnattachedUploads(db: DbOrTx, storage: ObjectStorage): Promise<number> {
  let removed = 0;
  for (;;) {
    const keys = await db.transaction(async (tx) => {
      const deleted = await queryRows(
        tx,
        sql`
        delete from uploads
        where id in (
          select u.id from uploads u
          where u.created_at < now() - make_interval(hours => ${UNATTACHED_UPLOAD_HOURS})
            and not exists (
              select 1 from kyc_applications k
              where '/objects/' || u.object_key in
                (k.driving_license_front, k.driving_license_back, k.llc_document, k.ein_document))
            and not exists (select 1 from compliance_case_documents d where d.upload_id = u.id)
          order by u.created_at
          limit ${SWEEP_BATCH}
          for update skip locked)
        returning object_key`,
        z.object({ object_key: z.string() }),
      );
      for (const { object_key } of deleted) await storage.delete(object_key);
      return deleted;
    });
    removed += keys.length;
    if (keys.length < SWEEP_BATCH) return removed;
  }
}
