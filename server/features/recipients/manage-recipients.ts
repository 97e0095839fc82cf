import { and, asc, eq, sql } from "drizzle-orm";
import {
  type CreateRecipientInput,
  isSameAddress,
  RECIPIENT_LIMIT,
  RECIPIENT_MESSAGES,
  type RecipientList,
  type SavedRecipient,
} from "@/contract/recipients";
import type { DbOrTx } from "@/server/db/client";
import { savedRecipients } from "@/server/db/schema";
import { findSanctionsHits, recordHits } from "@/server/features/compliance/screen";
import { writeAudit } from "@/server/lib/audit";
import { AppError, pgErrorCode } from "@/server/lib/errors";

type RecipientRow = typeof savedRecipients.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = () => new AppError("NOT_FOUND", RECIPIENT_MESSAGES.notFound);
const duplicate = (name: string) =>
  new AppError("duplicate_recipient", RECIPIENT_MESSAGES.duplicate, { savedAs: name });

export function toSavedRecipient(row: RecipientRow): SavedRecipient {
  return { id: row.id, name: row.name, address: row.address, createdAt: row.createdAt.toISOString() };
}

/** Every one of the customer's saved recipients, by name (the cap keeps the list short enough for one answer). */
export async function findRecipients(db: DbOrTx, userId: string): Promise<RecipientList> {
  const rows = await db
    .select()
    .from(savedRecipients)
    .where(eq(savedRecipients.userId, userId))
    .orderBy(asc(sql`lower(${savedRecipients.name})`), asc(savedRecipients.id));
  return { items: rows.map(toSavedRecipient), limit: RECIPIENT_LIMIT };
}

/**
 * Saves a name for an address: once per address (any case), at most RECIPIENT_LIMIT, with an audit row. The
 * address and name are screened against the sanctions list; a hit is filed for compliance with the save, and
 * the customer is told nothing (transfers to it will wait under review).
 */
export async function createRecipient(
  db: DbOrTx,
  userId: string,
  input: CreateRecipientInput,
  sanctionsThreshold: number,
): Promise<SavedRecipient> {
  const hits = await findSanctionsHits(
    db,
    { names: [{ value: input.name, type: null }], addresses: [input.address] },
    sanctionsThreshold,
  );
  try {
    return await db.transaction(async (tx) => {
      // Lock the customer first: two saves racing at the cap must not both see room for one more.
      await tx.execute(sql`select id from users where id = ${userId} for no key update`);
      const existing = await tx
        .select({ name: savedRecipients.name, address: savedRecipients.address })
        .from(savedRecipients)
        .where(eq(savedRecipients.userId, userId));
      const same = existing.find((r) => isSameAddress(r.address, input.address));
      if (same) throw duplicate(same.name);
      if (existing.length >= RECIPIENT_LIMIT) {
        throw new AppError("recipient_limit_reached", RECIPIENT_MESSAGES.limit, {
          recipientLimit: RECIPIENT_LIMIT,
        });
      }
      const [row] = await tx
        .insert(savedRecipients)
        .values({ userId, name: input.name, address: input.address })
        .returning();
      await writeAudit(tx, {
        actorId: userId,
        action: "recipient.add",
        targetType: "saved_recipient",
        targetId: row!.id,
        after: { name: row!.name, address: row!.address },
      });
      if (hits.length > 0) await recordHits(tx, { userId, point: "recipient", hits });
      return toSavedRecipient(row!);
    });
  } catch (err) {
    // The unique index is the last word should two saves of one address race past the check above.
    if (pgErrorCode(err) === "23505") throw duplicate(input.name);
    throw err;
  }
}

/** Renames one of the customer's own recipients; anyone else's id is simply not found. */
export async function renameRecipient(
  db: DbOrTx,
  userId: string,
  recipientId: string,
  name: string,
): Promise<SavedRecipient> {
  if (!UUID.test(recipientId)) throw notFound();
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ name: savedRecipients.name })
      .from(savedRecipients)
      .where(and(eq(savedRecipients.id, recipientId.toLowerCase()), eq(savedRecipients.userId, userId)))
      .for("update");
    if (!before) throw notFound();
    const [row] = await tx
      .update(savedRecipients)
      .set({ name })
      .where(eq(savedRecipients.id, recipientId.toLowerCase()))
      .returning();
    await writeAudit(tx, {
      actorId: userId,
      action: "recipient.rename",
      targetType: "saved_recipient",
      targetId: row!.id,
      before: { name: before.name },
      after: { name: row!.name },
    });
    return toSavedRecipient(row!);
  });
}

/** Removes one of the customer's own recipients, with an audit row naming what was removed. */
export async function deleteRecipient(db: DbOrTx, userId: string, recipientId: string): Promise<void> {
  if (!UUID.test(recipientId)) throw notFound();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(savedRecipients)
      .where(and(eq(savedRecipients.id, recipientId.toLowerCase()), eq(savedRecipients.userId, userId)))
      .returning();
    if (!row) throw notFound();
    await writeAudit(tx, {
      actorId: userId,
      action: "recipient.remove",
      targetType: "saved_recipient",
      targetId: row.id,
      before: { name: row.name, address: row.address },
    });
  });
}
