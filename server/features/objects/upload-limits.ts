import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";

const MEBIBYTE = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round((bytes / MEBIBYTE) * 10) / 10} MB`;

export const tooManyUploadsAtOnce = (max: number) =>
  new AppError(
    "upload_concurrency_limit",
    `You can upload ${max} files at a time. Wait for an upload to finish, then try again.`,
  );

export const dailyUploadLimitReached = (max: number) =>
  new AppError(
    "upload_daily_limit",
    `You have reached the upload limit of ${megabytes(max)} a day. Try again tomorrow, or contact support.`,
  );

/**
 * Bytes `userId` stored in the last 24 hours, from the uploads table, so every instance sees the same
 * total. Completed uploads count even if later refused or swept: the disk and bandwidth were spent.
 */
export async function findUploadedBytesToday(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`
    select coalesce(sum(size_bytes), 0)::float8 as bytes from uploads
    where user_id = ${userId} and completed_at > now() - interval '24 hours'`,
    z.object({ bytes: z.coerce.number() }),
  );
  return Number(row?.bytes ?? 0);
}

/** Bytes `userId` may still upload today; refuses (429) when none are left. */
export async function ensureDailyUploadAllowance(deps: AppDeps, userId: string): Promise<number> {
  const max = deps.config.uploads.dailyBytesPerUser;
  const left = max - (await findUploadedBytesToday(deps.database.db, userId));
  if (left <= 0) throw dailyUploadLimitReached(max);
  return left;
}

/** Uploads streaming through this instance per user: counted here, so per instance (the README says so). */
const activeUploads = new WeakMap<AppDeps, Map<string, number>>();

/** Takes one of the user's upload slots (429 when all are busy); call `release` exactly once when done. */
export function takeUploadSlot(deps: AppDeps, userId: string): { release(): void } {
  const perUser = activeUploads.get(deps) ?? new Map<string, number>();
  activeUploads.set(deps, perUser);
  const max = deps.config.uploads.maxConcurrentPerUser;
  const active = perUser.get(userId) ?? 0;
  if (active >= max) throw tooManyUploadsAtOnce(max);
  perUser.set(userId, active + 1);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const left = (perUser.get(userId) ?? 1) - 1;
      if (left > 0) perUser.set(userId, left);
      else perUser.delete(userId);
    },
  };
}
