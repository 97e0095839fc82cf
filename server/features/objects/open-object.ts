import type { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { READ_ACTIONS } from "@/contract/audit";
import { holdsAnyRole } from "@/contract/staff";
import type { AppDeps } from "@/server/app-deps";
import { uploads } from "@/server/db/schema";
import { writeAudit } from "@/server/lib/audit";
import { authorisingRole } from "@/server/lib/audit-read";
import { AppError } from "@/server/lib/errors";
import { DOCUMENT_ROLES } from "@/server/lib/route-roles";
import type { SessionUser } from "@/server/lib/session";
import { ensureUploadVerified, objectKeyFromPath } from "@/server/lib/storage/uploads";

export interface OpenedDocument {
  stream: Readable;
  contentType: string;
  size: number;
}

const notFound = () => new AppError("NOT_FOUND", "Object not found");

/**
 * An uploaded file for its owner or compliance staff (and owners); a staff read is audited. Everyone else, signed out included, gets the same 404 as for a
 * path that does not exist, so object ids cannot be probed.
 */
export async function openObject(
  deps: AppDeps,
  user: SessionUser | null,
  objectPath: string,
): Promise<OpenedDocument> {
  const key = objectKeyFromPath(objectPath);
  if (!user || !key) throw notFound();
  const { db } = deps.database;
  const [found] = await db.select().from(uploads).where(eq(uploads.objectKey, key));
  // Staff without a document role (support, finance) get the same 404 as a stranger.
  if (!found || (found.userId !== user.id && !holdsAnyRole(user.staffRoles, DOCUMENT_ROLES)))
    throw notFound();
  let upload = found;
  if (upload.status !== "complete") {
    // With S3 the owner may look at a file before attaching it; check it first, like attaching does.
    if (deps.storage.kind === "local" || upload.userId !== user.id) throw notFound();
    upload = await ensureUploadVerified(db, deps.storage, upload).catch(() => {
      throw notFound();
    });
  }
  const opened = await deps.storage.open(upload.objectKey, { ifMatch: upload.storageEtag });
  if (!opened || !upload.contentType) throw notFound();
  if (upload.userId !== user.id) {
    // Staff opening a customer's document: audited before a byte is sent, and shown to the customer.
    await writeAudit(db, {
      actorId: user.id,
      actorRole: authorisingRole(user.staffRoles, DOCUMENT_ROLES),
      action: READ_ACTIONS.documentOpened,
      targetType: "user",
      targetId: upload.userId,
      subjectUserId: upload.userId,
      after: { uploadId: upload.id },
    }).catch((err) => {
      opened.stream.destroy();
      throw err;
    });
  }
  return { stream: opened.stream, contentType: upload.contentType, size: opened.size };
}
