import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AddressCheck } from "@/contract/recipients";
import { type DbOrTx, queryRows } from "@/server/db/client";

/**
 * What the review step warns about, for one address: whether it is saved (and as whom), which saved
 * recipient it imitates (the lookalike_recipient SQL function), and whether it would be the first payment to
 * it — no pending, processing or completed transfer to it yet (a failed or cancelled one never reached the
 * address, so it proves nothing).
 */
export async function checkAddress(db: DbOrTx, userId: string, address: string): Promise<AddressCheck> {
  const lowered = address.trim().toLowerCase();
  const [row] = await queryRows(
    db,
    sql`
    select
      (select json_build_object('id', s.id, 'name', s.name) from saved_recipients s
        where s.user_id = ${userId} and lower(s.address) = ${lowered}) as saved,
      (select json_build_object('id', l.id, 'name', l.name, 'address', l.address)
         from lookalike_recipient(${userId}::uuid, ${address}) as l) as lookalike,
      not exists (select 1 from transfer_requests t
                   where t.user_id = ${userId} and lower(t.crypto_address) = ${lowered}
                     and t.status in ('pending', 'processing', 'completed')) as is_first_payment`,
    z.object({
      saved: z.object({ id: z.string(), name: z.string() }).nullable(),
      lookalike: z.object({ id: z.string(), name: z.string(), address: z.string() }).nullable(),
      is_first_payment: z.boolean(),
    }),
  );
  return {
    savedRecipient: row?.saved ?? null,
    lookalike: row?.lookalike ?? null,
    isFirstPayment: row?.is_first_payment ?? true,
  };
}

/** The saved recipient this address imitates, if any: the lookalike_recipient SQL function (server/db/functions). */
export async function findLookalikeRecipient(
  db: DbOrTx,
  userId: string,
  address: string,
): Promise<{ id: string; name: string; address: string } | null> {
  const [row] = await queryRows(
    db,
    sql`select l.id, l.name, l.address from lookalike_recipient(${userId}::uuid, ${address}) as l`,
    z.object({ id: z.string(), name: z.string(), address: z.string() }),
  );
  return row ?? null;
}
