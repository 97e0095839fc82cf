import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import {
  MONEY_REQUEST_MESSAGES,
  REQUEST_BLOCKS_PAGE_SIZE,
  type RequestBlock,
  type RequestBlockAnswer,
  type RequestBlockPage,
} from "@/contract/money-requests";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows, type Tx } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";
import { lockWallet } from "@/server/lib/ledger";

/**
 * A customer blocks a requester from the request they received (decision 037's amendment). The block is never
 * told to the requester: their later requests to this customer are answered as usual (same caps, same
 * "Request sent") and shown to them as waiting, but withheld from this customer (money-requests.ts), as a
 * payer who does not answer looks. A generic refusal would tell a harasser they were blocked and invite them
 * to try another way.
 */

interface Customer {
  id: string;
  isAdmin: boolean;
}

const requestNotFound = () => new AppError("NOT_FOUND", MONEY_REQUEST_MESSAGES.notFound);
const blockNotFound = () => new AppError("NOT_FOUND", MONEY_REQUEST_MESSAGES.blockNotFound);

const blockRow = z.object({
  id: z.string(),
  requester_tag: z.string(),
  name: z.string().nullable(),
  created_at: z.coerce.date(),
});
type BlockRow = z.infer<typeof blockRow>;

const BLOCK_COLUMNS = sql`b.id, b.requester_tag, mask_name(u.first_name, u.last_name) as name, b.created_at`;

function toView(row: BlockRow): RequestBlock {
  return {
    id: row.id,
    tag: row.requester_tag,
    name: row.name ?? "",
    createdAt: row.created_at.toISOString(),
  };
}

/** Whether `payerId` blocked `requesterId`; read under both wallets' locks by the request's creation. */
export async function isRequesterBlocked(tx: Tx, payerId: string, requesterId: string): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`select 1 as one from money_request_blocks where payer_id = ${payerId} and requester_id = ${requesterId}`,
    z.object({ one: z.number() }),
  );
  return rows.length > 0;
}

async function readBlock(db: DbOrTx, where: ReturnType<typeof sql>): Promise<BlockRow | null> {
  const [row] = await queryRows(
    db,
    sql`select ${BLOCK_COLUMNS} from money_request_blocks b left join users u on u.id = b.requester_id
      where ${where}`,
    blockRow,
  );
  return row ?? null;
}

/**
 * POST /api/transfer/requests/:id/block: the payer of request `id` blocks its requester. Their open requests to
 * this payer are withheld at once; nothing changes on the requester's side. Blocking twice answers the same block.
 */
export async function blockRequester(
  deps: AppDeps,
  payer: Customer,
  requestId: string,
  now: Date = new Date(),
): Promise<RequestBlockAnswer> {
  if (payer.isAdmin) throw requestNotFound();
  return deps.database.db.transaction(async (tx) => {
    const [request] = await queryRows(
      tx,
      sql`select requester_id, requester_tag from money_requests
        where id = ${requestId} and payer_id = ${payer.id} and not withheld`,
      z.object({ requester_id: z.string().nullable(), requester_tag: z.string() }),
    );
    // Another customer's request, the requester's own side, or one whose requester closed their account.
    if (!request?.requester_id) throw requestNotFound();
    const requesterId = request.requester_id;
    // Withholding updates request rows, whose trigger raises both parties' notices: take their wallet locks
    // first, in id order, as every other write of a request does.
    for (const id of [payer.id, requesterId].sort()) await lockWallet(tx, id);
    await tx.execute(sql`
      insert into money_request_blocks (id, payer_id, requester_id, requester_tag, created_at)
      values (${randomUUID()}, ${payer.id}, ${requesterId}, ${request.requester_tag}, ${now.toISOString()})
      on conflict (payer_id, requester_id) do nothing`);
    await tx.execute(sql`update money_requests set withheld = true
      where payer_id = ${payer.id} and requester_id = ${requesterId} and status = 'open' and not withheld`);
    const block = await readBlock(tx, sql`b.payer_id = ${payer.id} and b.requester_id = ${requesterId}`);
    return { message: MONEY_REQUEST_MESSAGES.blocked(block!.requester_tag), block: toView(block!) };
  });
}

/**
 * DELETE /api/transfer/request-blocks/:id: the requester may ask this customer again. Requests withheld while
 * blocked stay withheld: unblocking never delivers a backlog.
 */
export async function unblockRequester(
  deps: AppDeps,
  payer: Customer,
  blockId: string,
): Promise<RequestBlockAnswer> {
  if (payer.isAdmin) throw blockNotFound();
  return deps.database.db.transaction(async (tx) => {
    const block = await readBlock(tx, sql`b.id = ${blockId} and b.payer_id = ${payer.id}`);
    if (!block) throw blockNotFound();
    await tx.execute(sql`delete from money_request_blocks where id = ${blockId} and payer_id = ${payer.id}`);
    return { message: MONEY_REQUEST_MESSAGES.unblocked(block.requester_tag), block: toView(block) };
  });
}

const CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)_([0-9a-f-]{36})$/;

/** GET /api/transfer/request-blocks: the requesters this customer blocked, newest first, by keyset. */
export async function findRequestBlocks(
  db: DbOrTx,
  viewer: Customer,
  query: { before?: string | undefined },
): Promise<RequestBlockPage> {
  if (viewer.isAdmin) throw new AppError("staff_account", TRANSFER_MESSAGES.adminCannotTransfer);
  let after = sql``;
  if (query.before !== undefined) {
    const match = CURSOR.exec(query.before);
    if (!match) throw new AppError("VALIDATION", "Invalid cursor");
    after = sql`and (b.created_at, b.id) < (${match[1]}::timestamptz, ${match[2]}::uuid)`;
  }
  const rows = await queryRows(
    db,
    sql`select ${BLOCK_COLUMNS} from money_request_blocks b left join users u on u.id = b.requester_id
      where b.payer_id = ${viewer.id} ${after}
      order by b.created_at desc, b.id desc limit ${REQUEST_BLOCKS_PAGE_SIZE + 1}`,
    blockRow,
  );
  const page = rows.slice(0, REQUEST_BLOCKS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    blocks: page.map(toView),
    nextCursor:
      rows.length > REQUEST_BLOCKS_PAGE_SIZE && last ? `${last.created_at.toISOString()}_${last.id}` : null,
  };
}
