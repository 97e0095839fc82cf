import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { type Db, queryRows } from "@/server/db/client";
import type { LoopSpec } from "@/server/jobs/loop";
import { writeAudit } from "@/server/lib/audit";
import type { ObjectStorage } from "@/server/lib/storage/storage";
import { updateUser } from "@/server/lib/write-user";

export interface ErasureOptions {
  retentionYears: number;
  /** The clock: tests move it past the retention period instead of waiting five years. */
  now?: Date;
  batch?: number;
}

const dueRow = z.object({ id: z.string() });
const keyRow = z.object({ object_key: z.string() });

/**
 * Erases the identity data of accounts closed more than `retentionYears` ago (decision 059): the KYC documents
 * in object storage and their upload rows, the SSN (ciphertext, blind index, last four), date of birth, address
 * and company name on every KYC application, the TIN and address on every Form 1099-INT (decision 070), and the
 * phone number. Kept: the login (e-mail, name), the ledger, transactions, statements' and tax forms' figures,
 * audit and compliance records (a case's evidence is compliance's, not erased here). One customer per transaction, claimed with SKIP LOCKED so instances share the work; the objects
 * are deleted before the rows that name them, so a crash between leaves a row to retry, never an orphan file.
 */
export async function eraseExpiredIdentities(
  db: Db,
  storage: ObjectStorage,
  { retentionYears, now = new Date(), batch = 50 }: ErasureOptions,
): Promise<{ erased: number; more: boolean }> {
  let erased = 0;
  for (; erased < batch; erased++) {
    const done = await db.transaction(async (tx) => {
      const [due] = await queryRows(
        tx,
        sql`select id from users
          where closed_at is not null and identity_erased_at is null
            and closed_at <= ${now.toISOString()}::timestamptz - make_interval(years => ${retentionYears})
          order by closed_at, id limit 1 for update skip locked`,
        dueRow,
      );
      if (!due) return false;
      const objects = await queryRows(
        tx,
        sql`select object_key from uploads u where u.user_id = ${due.id}::uuid
          and not exists (select 1 from compliance_case_documents d where d.upload_id = u.id)`,
        keyRow,
      );
      for (const { object_key } of objects) await storage.delete(object_key);
      await tx.execute(sql`delete from uploads u where u.user_id = ${due.id}::uuid
        and not exists (select 1 from compliance_case_documents d where d.upload_id = u.id)`);
      // The SSN's blind index stays unique per application ('erased:' || id) and frees the number for reuse.
      await tx.execute(sql`update kyc_applications set
          ssn_ciphertext = '', ssn_index = 'erased:' || id::text, ssn_last4 = '', date_of_birth = null,
          street = '', city = '', state = '', zip_code = '', address = '', company_name = null,
          driving_license_front = null, driving_license_back = null, llc_document = null, ein_document = null,
          updated_at = now()
        where user_id = ${due.id}::uuid`);
      // Forms 1099-INT (decision 070) keep their figures; the TIN they copied sealed and the address go too.
      await tx.execute(sql`update tax_forms set tin_ciphertext = '', tin_last4 = '', recipient_street = '',
          recipient_city = '', recipient_state = '', recipient_zip = ''
        where user_id = ${due.id}::uuid`);
      await updateUser(tx, due.id, { phoneNumber: null, identityErasedAt: now, updatedAt: now });
      await writeAudit(tx, {
        actorId: null,
        action: "account.identity_erased",
        targetType: "user",
        targetId: due.id,
        subjectUserId: due.id,
        after: { retentionYears, documentsDeleted: objects.length },
      });
      return true;
    });
    if (!done) return { erased, more: false };
  }
  return { erased, more: true };
}

/** The retention job in the jobs room: hourly, a batch at a time; every instance may run it (SKIP LOCKED). */
export function identityErasureLoop(
  db: Db,
  storage: ObjectStorage,
  retentionYears: number,
  log: FastifyBaseLogger,
): LoopSpec {
  return {
    name: "identity-erasure",
    everyMs: 60 * 60_000,
    async pass() {
      const { erased, more } = await eraseExpiredIdentities(db, storage, { retentionYears });
      if (erased > 0)
        log.info({ erased }, "identity data of closed accounts erased after the retention period");
      return { done: erased, more };
    },
  };
}
