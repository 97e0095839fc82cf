import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Customer reads bounded at a million customers (decision 066): indexes for the device-cookie lookup, the blocking
// rule, closure_blocker's in-flight checks, the unread page and a statement's month; the unread page's and the
// postings' older indexes, which the new ones cover, are dropped.
const INDEXES: Record<string, string> = {
  known_devices_token_hash_idx: "ON public.known_devices USING btree (token_hash)",
  transfer_requests_user_address_created_idx: "(user_id, lower(crypto_address), created_at)",
  transfer_requests_user_in_flight_idx:
    "(user_id) WHERE (status = ANY (ARRAY['pending'::text, 'processing'::text]))",
  transactions_user_in_flight_idx:
    "(user_id) WHERE (status = ANY (ARRAY['initiated'::text, 'pending'::text, 'in_review'::text, 'processing'::text]))",
  incoming_payments_user_created_idx: "(user_id, created_at)",
  holds_open_account_idx: "(account_id) WHERE (status = 'open'::text)",
  money_requests_open_payer_idx: "(payer_id) WHERE (status = 'open'::text)",
  notifications_user_unread_id_idx: "(user_id, id) WHERE (read_at IS NULL)",
  chat_messages_user_unread_idx: "(user_id, is_from_user) WHERE (read_at IS NULL)",
  postings_account_created_idx: "(account_id, created_at) INCLUDE (amount)",
  transactions_entry_idx: "(entry_id) WHERE (entry_id IS NOT NULL)",
};

const step: MigrationStep = {
  async after(db) {
    // Each index is there, valid (on PostgreSQL the partitioned tables' indexes too), on the columns its query reads.
    const found = await db.query<{ name: string; def: string; valid: boolean }>(
      `select c.relname as name, pg_get_indexdef(i.indexrelid) as def, i.indisvalid as valid
       from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = any($1) order by 1`,
      [Object.keys(INDEXES)],
    );
    expect(found.map((f) => f.name)).toEqual(Object.keys(INDEXES).sort());
    for (const { name, def, valid } of found) {
      expect(def, name).toContain(INDEXES[name]);
      expect(valid, name).toBe(true);
    }
    // The unread page's user-only index and the postings' account-only index are gone, from every partition too.
    const replaced = await db.query(
      `select indexname from pg_indexes
       where (tablename like 'notifications%' and indexdef like '%(user_id) WHERE (read_at IS NULL)')
         or (tablename = 'postings' and indexdef like '%btree (account_id)')
         or indexname in ('notifications_unread_idx', 'postings_account_idx')`,
    );
    expect(replaced).toEqual([]);
  },
};
export default step;
