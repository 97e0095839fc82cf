import { type SQL, sql } from "drizzle-orm";
import { type AddressCheck, addressCore, LOOKALIKE_EDGE } from "@/contract/recipients";
import { type DbOrTx, queryRows } from "@/server/db/client";

/**
 * The customer's saved recipient whose address this one imitates — same first and last LOOKALIKE_EDGE
 * characters (after Ethereum's `0x`, any case) but another address — as one row of (id, name, address), or
 * none. None as well when this very address is saved: the customer vouched for it by saving it.
 * A subquery, so the transfer's one context query under the wallet lock can carry it.
 */
export function lookalikeRecipientSql(userId: string, address: string): SQL {
  const core = addressCore(address);
  return sql`(select r.id, r.name, r.address from saved_recipients r
     where r.user_id = ${userId}
       and lower(r.address) <> ${address.trim().toLowerCase()}
       and left(lower(regexp_replace(r.address, '^0x', '')), ${LOOKALIKE_EDGE}) = ${core.slice(0, LOOKALIKE_EDGE)}
       and right(lower(r.address), ${LOOKALIKE_EDGE}) = ${core.slice(-LOOKALIKE_EDGE)}
       and not exists (select 1 from saved_recipients s
                        where s.user_id = ${userId} and lower(s.address) = ${address.trim().toLowerCase()})
     order by r.created_at, r.id
     limit 1)`;
}

/**
 * What the review step warns about, for one address: whether it is saved (and as whom), which saved
 * recipient it imitates, and whether it would be the first payment to it — no pending, processing or
 * completed transfer to it yet (a failed or cancelled one never reached the address, so it proves nothing).
 */
export async function checkAddress(db: DbOrTx, userId: string, address: string): Promise<AddressCheck> {
  const lowered = address.trim().toLowerCase();
  const [row] = await queryRows<{
    saved: AddressCheck["savedRecipient"];
    lookalike: AddressCheck["lookalike"];
    is_first_payment: boolean;
  }>(
    db,
    sql`
    select
      (select json_build_object('id', s.id, 'name', s.name) from saved_recipients s
        where s.user_id = ${userId} and lower(s.address) = ${lowered}) as saved,
      (select json_build_object('id', l.id, 'name', l.name, 'address', l.address)
         from ${lookalikeRecipientSql(userId, address)} as l) as lookalike,
      not exists (select 1 from transfer_requests t
                   where t.user_id = ${userId} and lower(t.crypto_address) = ${lowered}
                     and t.status in ('pending', 'processing', 'completed')) as is_first_payment`,
  );
  return {
    savedRecipient: row?.saved ?? null,
    lookalike: row?.lookalike ?? null,
    isFirstPayment: row?.is_first_payment ?? true,
  };
}

/** The saved recipient this address imitates, if any (see lookalikeRecipientSql). */
export async function findLookalikeRecipient(
  db: DbOrTx,
  userId: string,
  address: string,
): Promise<{ id: string; name: string; address: string } | null> {
  const [row] = await queryRows<{ id: string; name: string; address: string }>(
    db,
    sql`select l.id, l.name, l.address from ${lookalikeRecipientSql(userId, address)} as l`,
  );
  return row ?? null;
}
