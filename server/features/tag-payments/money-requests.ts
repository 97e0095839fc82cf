import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatMoney, parseMoney } from "@/contract/money";
import {
  type CreateMoneyRequestInput,
  MONEY_REQUEST_MESSAGES,
  MONEY_REQUEST_NOTE_HINT,
  MONEY_REQUESTS_PAGE_SIZE,
  type MoneyRequest,
  type MoneyRequestAnswer,
  type MoneyRequestPage,
  OPEN_REQUESTS_PER_PAYER,
  type PayMoneyRequestInput,
  REQUESTS_PER_PAYER_PER_DAY,
} from "@/contract/money-requests";
import { SECURITY_MESSAGES } from "@/contract/security";
import { TAG_PAY_MESSAGES } from "@/contract/tag-payments";
import { DAILY_LIMIT_CENTS, TRANSFER_MESSAGES } from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows, type Tx } from "@/server/db/client";
import type { ProofOrigin } from "@/server/features/auth/second-factor";
import { publicBaseUrl } from "@/server/features/security/freeze-links";
import { isRequesterBlocked } from "@/server/features/tag-payments/money-request-blocks";
import { requestClosed, requestNotFound } from "@/server/features/tag-payments/money-request-refusals";
import {
  normalizeTag,
  payByTag,
  type TagPayer,
  type TagPaymentResult,
} from "@/server/features/tag-payments/pay-by-tag";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { refuseClosedAccount } from "@/server/lib/account-closed";
import { AppError } from "@/server/lib/errors";
import { lockWallet } from "@/server/lib/ledger";
import { moneyRequestAnsweredMail, moneyRequestedMail } from "@/server/lib/mail/money-templates";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { type Notification, notify } from "@/server/lib/notifications";

/**
 * "Request money" from a $tag (decision 037). A customer asks another, by $tag, for an amount; the
 * payer pays it through the pay-by-tag path (payByTag, one call of pay_by_tag: the same gate, step-up, idempotency,
 * limits, freeze and screening, and the request marked paid in the payment's transaction) or declines it; the
 * requester may cancel it while it is open. Who can be asked is who can be paid (tag_payee), answered exactly like
 * the tag lookup, so requests discover no more than it does.
 *
 * Every write of a request row takes both parties' wallet locks first, in user id order, as pay_by_tag does before
 * it locks the request: taken the other way round, a decline and a payment of the same request could deadlock.
 */

interface Customer {
  id: string;
  isAdmin: boolean;
  pillarTag: string;
}

const unavailable = () => new AppError("tag_unavailable", TAG_PAY_MESSAGES.unavailable);
const staffCannotRequest = () => new AppError("staff_account", TRANSFER_MESSAGES.adminCannotTransfer);

const partyRow = z.object({
  id: z.string(),
  pillar_tag: z.string(),
  first_name: z.string(),
  last_name: z.string(),
});

const requestRow = z.object({
  id: z.string(),
  requester_id: z.string().nullable(),
  payer_id: z.string().nullable(),
  requester_tag: z.string(),
  payer_tag: z.string(),
  amount: z.coerce.number(),
  note: z.string().nullable(),
  status: z.enum(["open", "paid", "declined", "cancelled"]),
  withheld: z.boolean(),
  created_at: z.coerce.date(),
  decided_at: z.coerce.date().nullable(),
  requester_name: z.string().nullable(),
  payer_name: z.string().nullable(),
});
type RequestRow = z.infer<typeof requestRow>;

const REQUEST_COLUMNS = sql`r.id, r.requester_id, r.payer_id, r.requester_tag, r.payer_tag, r.amount, r.note,
  r.status, r.withheld, r.created_at, r.decided_at, mask_name(rq.first_name, rq.last_name) as requester_name,
  mask_name(py.first_name, py.last_name) as payer_name`;
const REQUEST_JOINS = sql`left join users rq on rq.id = r.requester_id left join users py on py.id = r.payer_id`;

/** The request as `viewerId` sees it: the other party's tag and masked name (none once their account is gone). */
function toView(row: RequestRow, viewerId: string): MoneyRequest {
  const incoming = row.payer_id === viewerId;
  return {
    id: row.id,
    direction: incoming ? "incoming" : "outgoing",
    otherTag: incoming ? row.requester_tag : row.payer_tag,
    otherName: (incoming ? row.requester_name : row.payer_name) ?? "",
    amount: formatMoney(row.amount),
    amountCents: row.amount,
    note: row.note,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

async function readRequest(db: DbOrTx, id: string, lock = false): Promise<RequestRow | null> {
  const [row] = await queryRows(
    db,
    sql`select ${REQUEST_COLUMNS} from money_requests r ${REQUEST_JOINS} where r.id = ${id}
      ${lock ? sql`for update of r` : sql``}`,
    requestRow,
  );
  return row ?? null;
}

/** Both parties' wallets, locked in id order (see above). */
async function lockParties(tx: Tx, ...userIds: (string | null)[]) {
  const ids = [...new Set(userIds.filter((id): id is string => id !== null))].sort();
  for (const id of ids) await lockWallet(tx, id);
}

/** Where a party's e-mail goes, and the name it greets. */
async function contactOf(db: DbOrTx, userId: string) {
  const [row] = await queryRows(
    db,
    sql`select email, first_name from users where id = ${userId}`,
    z.object({ email: z.string(), first_name: z.string() }),
  );
  return row ?? null;
}

/** The requester is told their request was paid or declined, in the app and by e-mail as they chose. */
async function answeredNotification(
  db: DbOrTx,
  row: RequestRow,
  answer: "paid" | "declined",
): Promise<Notification | null> {
  if (!row.requester_id) return null;
  const amount = formatMoney(row.amount);
  const contact = await contactOf(db, row.requester_id);
  return {
    userId: row.requester_id,
    kind: "money_request",
    content:
      answer === "paid"
        ? {
            title: `${row.payer_tag} paid your request`,
            body: `${row.payer_tag} paid your request for ${amount}.`,
            link: "/dashboard",
          }
        : {
            title: `${row.payer_tag} declined your request`,
            body: `${row.payer_tag} declined your request for ${amount}.`,
            link: "/pay",
          },
    mail:
      contact &&
      moneyRequestAnsweredMail(contact.email, {
        firstName: contact.first_name,
        payerTag: row.payer_tag,
        amount,
        answer,
      }),
  };
}

/**
 * How the requester hears of their request paid (its own switches, not a plain payment in), after the payment's
 * commit (server/jobs/consumers/tag-payments.ts).
 */
export async function requestPaidNotification(db: DbOrTx, requestId: string): Promise<Notification | null> {
  const row = await readRequest(db, requestId);
  return row && answeredNotification(db, row, "paid");
}

/**
 * One requester may ask the same payer at most REQUESTS_PER_PAYER_PER_DAY times a New York day, whatever became of
 * the requests (decision 037's amendment): the open cap alone let them cancel and ask again all day. Withheld
 * ones count too, so the cap tells a blocked requester nothing. Both wallets are locked, so racing creations
 * count each other.
 */
async function refuseOverDailyCap(tx: Tx, requesterId: string, payerId: string, now: Date): Promise<void> {
  const [{ today } = { today: 0 }] = await queryRows(
    tx,
    sql`select count(*)::int as today from money_requests
      where requester_id = ${requesterId} and payer_id = ${payerId}
        and created_at >= (${limitDayOf(now)}::date::timestamp at time zone 'America/New_York')`,
    z.object({ today: z.number() }),
  );
  if (today >= REQUESTS_PER_PAYER_PER_DAY) {
    throw new AppError(
      "money_request_daily_cap",
      MONEY_REQUEST_MESSAGES.dailyCap(REQUESTS_PER_PAYER_PER_DAY),
    );
  }
}

/**
 * The payer is told of a request in the app and by e-mail, as they chose. Neither carries the note (decision 037):
 * it is the requester's words, links included, and the bank's own messages must not carry them; the app shows it
 * beside the request.
 */
async function notifyAsked(
  deps: AppDeps,
  tx: Tx,
  payerId: string,
  asked: { requesterTag: string; amount: number; hasNote: boolean },
): Promise<void> {
  const amount = formatMoney(asked.amount);
  const contact = await contactOf(tx, payerId);
  await notify(
    tx,
    payerId,
    "money_request",
    {
      title: `${asked.requesterTag} requested ${amount}`,
      body: asked.hasNote
        ? `${asked.requesterTag} asked you for ${amount} ${MONEY_REQUEST_NOTE_HINT}.`
        : `${asked.requesterTag} asked you for ${amount}.`,
      link: "/pay",
    },
    contact &&
      moneyRequestedMail(contact.email, {
        firstName: contact.first_name,
        requesterTag: asked.requesterTag,
        amount,
        hasNote: asked.hasNote,
        url: `${publicBaseUrl(deps.config)}/pay`,
      }),
  );
}

async function payableAt(db: DbOrTx, tag: string) {
  const [row] = await queryRows(
    db,
    sql`select id, pillar_tag, first_name, last_name from tag_payee(${tag})`,
    partyRow,
  );
  return row ?? null;
}

/** POST /api/transfer/requests: ask the customer at `tag` for an amount. */
export async function createMoneyRequest(
  deps: AppDeps,
  requester: Customer,
  input: CreateMoneyRequestInput,
  now: Date = new Date(),
): Promise<MoneyRequestAnswer> {
  if (requester.isAdmin) throw staffCannotRequest();
  const amount = parseMoney(input.amount);
  if (amount === null) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountInvalid);
  if (amount <= 0) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountPositive);
  if (amount > DAILY_LIMIT_CENTS) throw new AppError("VALIDATION", MONEY_REQUEST_MESSAGES.tooLarge);
  const tag = normalizeTag(input.tag);
  if (tag === null) throw unavailable();
  if (tag === requester.pillarTag.toLowerCase()) {
    throw new AppError("self_payment", MONEY_REQUEST_MESSAGES.selfRequest);
  }
  const note = input.note ? input.note : null;

  const answer = await deps.database.db.transaction(async (tx) => {
    const seen = await payableAt(tx, tag);
    await lockParties(tx, requester.id, seen?.id ?? null);
    await refuseClosedAccount(tx, requester.id);
    // The requester must be able to receive what they ask for: the same rule as being paid by tag.
    const self = await payableAt(tx, requester.pillarTag);
    if (!self || self.id !== requester.id) {
      const [frozen] = await queryRows(
        tx,
        sql`select frozen_at is not null as frozen from users where id = ${requester.id}`,
        z.object({ frozen: z.boolean() }),
      );
      if (frozen?.frozen) throw new AppError("account_frozen", SECURITY_MESSAGES.accountFrozen);
      throw new AppError("setup_incomplete", MONEY_REQUEST_MESSAGES.cannotReceive);
    }
    const payer = await payableAt(tx, tag);
    if (!payer || !seen || payer.id !== seen.id || payer.id === requester.id) throw unavailable();

    const [{ open } = { open: 0 }] = await queryRows(
      tx,
      sql`select count(*)::int as open from money_requests
        where requester_id = ${requester.id} and payer_id = ${payer.id} and status = 'open'`,
      z.object({ open: z.number() }),
    );
    if (open >= OPEN_REQUESTS_PER_PAYER) {
      throw new AppError(
        "too_many_money_requests",
        MONEY_REQUEST_MESSAGES.tooManyOpen(OPEN_REQUESTS_PER_PAYER),
      );
    }
    await refuseOverDailyCap(tx, requester.id, payer.id, now);

    const id = randomUUID();
    const requesterTag = `$${self.pillar_tag}`;
    const payerTag = `$${payer.pillar_tag}`;
    // A blocked requester is answered exactly as anyone else (same caps, same answer, their request shown waiting);
    // the request is withheld from the payer: no list entry, no notification, no e-mail.
    const withheld = await isRequesterBlocked(tx, payer.id, requester.id);
    await tx.execute(sql`
      insert into money_requests (id, requester_id, payer_id, requester_tag, payer_tag, amount, note, withheld, created_at)
      values (${id}, ${requester.id}, ${payer.id}, ${requesterTag}, ${payerTag}, ${amount}, ${note}, ${withheld}, ${now.toISOString()})`);
    if (!withheld) await notifyAsked(deps, tx, payer.id, { requesterTag, amount, hasNote: note !== null });
    const row = await readRequest(tx, id);
    return { message: MONEY_REQUEST_MESSAGES.created, request: toView(row!, requester.id) };
  });
  wakeMailWorker();
  return answer;
}

/** A request is the requester's, and the payer's unless it was withheld from them (a blocked requester's). */
function isVisibleTo(row: RequestRow, viewerId: string, side: "payer_id" | "requester_id"): boolean {
  return row[side] === viewerId && !(side === "payer_id" && row.withheld);
}

const CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)_([0-9a-f-]{36})$/;

/** GET /api/transfer/requests?direction=incoming|outgoing: newest first, by keyset. */
export async function findMoneyRequests(
  db: DbOrTx,
  viewer: Customer,
  query: { direction: "incoming" | "outgoing"; before?: string | undefined },
): Promise<MoneyRequestPage> {
  if (viewer.isAdmin) throw staffCannotRequest();
  let after = sql``;
  if (query.before !== undefined) {
    const match = CURSOR.exec(query.before);
    if (!match) throw new AppError("VALIDATION", "Invalid cursor");
    after = sql`and (r.created_at, r.id) < (${match[1]}::timestamptz, ${match[2]}::uuid)`;
  }
  // A withheld request (from a requester the payer blocked) is the requester's alone.
  const side =
    query.direction === "incoming"
      ? sql`r.payer_id = ${viewer.id} and not r.withheld`
      : sql`r.requester_id = ${viewer.id}`;
  const rows = await queryRows(
    db,
    sql`select ${REQUEST_COLUMNS} from money_requests r ${REQUEST_JOINS}
      where ${side} ${after}
      order by r.created_at desc, r.id desc limit ${MONEY_REQUESTS_PAGE_SIZE + 1}`,
    requestRow,
  );
  const page = rows.slice(0, MONEY_REQUESTS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    requests: page.map((row) => toView(row, viewer.id)),
    nextCursor:
      rows.length > MONEY_REQUESTS_PAGE_SIZE && last ? `${last.created_at.toISOString()}_${last.id}` : null,
  };
}

/**
 * Locks the request (after both wallets) for a decision by `side`; another customer's request, or one this side
 * cannot decide, is the same 404, and one no longer open is a 409 naming its state.
 */
async function openRequestFor(tx: Tx, id: string, viewerId: string, side: "payer_id" | "requester_id") {
  const seen = await readRequest(tx, id);
  if (!seen || !isVisibleTo(seen, viewerId, side)) throw requestNotFound();
  await lockParties(tx, seen.requester_id, seen.payer_id);
  const row = await readRequest(tx, id, true);
  if (!row || !isVisibleTo(row, viewerId, side)) throw requestNotFound();
  if (row.status !== "open") throw requestClosed(row.status);
  return row;
}

async function closeRequest(
  tx: Tx,
  row: RequestRow,
  status: "declined" | "cancelled",
  viewerId: string,
  now: Date,
): Promise<MoneyRequest> {
  await tx.execute(
    sql`update money_requests set status = ${status}, decided_at = ${now.toISOString()} where id = ${row.id}`,
  );
  const after = await readRequest(tx, row.id);
  return toView(after!, viewerId);
}

/** POST /api/transfer/requests/:id/decline: the payer says no; the requester is told. */
export async function declineMoneyRequest(
  deps: AppDeps,
  payer: Customer,
  id: string,
  now: Date = new Date(),
): Promise<MoneyRequestAnswer> {
  if (payer.isAdmin) throw requestNotFound();
  const answer = await deps.database.db.transaction(async (tx) => {
    const row = await openRequestFor(tx, id, payer.id, "payer_id");
    const request = await closeRequest(tx, row, "declined", payer.id, now);
    const told = await answeredNotification(tx, row, "declined");
    if (told) await notify(tx, told.userId, told.kind, told.content, told.mail);
    return { message: MONEY_REQUEST_MESSAGES.declined, request };
  });
  wakeMailWorker();
  return answer;
}

/** POST /api/transfer/requests/:id/cancel: the requester withdraws an open request. */
export async function cancelMoneyRequest(
  deps: AppDeps,
  requester: Customer,
  id: string,
  now: Date = new Date(),
): Promise<MoneyRequestAnswer> {
  if (requester.isAdmin) throw requestNotFound();
  return deps.database.db.transaction(async (tx) => {
    const row = await openRequestFor(tx, id, requester.id, "requester_id");
    const request = await closeRequest(tx, row, "cancelled", requester.id, now);
    return { message: MONEY_REQUEST_MESSAGES.cancelled, request };
  });
}

/**
 * POST /api/transfer/requests/:id/pay: a tag payment to the requester for the request's amount and note, through
 * payByTag (Idempotency-Key required, step-up, the gate and limits): one call of pay_by_tag, which finds the
 * request (another customer's, or one withheld from this payer, is the same 404), locks it after both wallets and
 * marks it paid in the payment's transaction. Staff are refused by the call: another's request is the same 404,
 * and one addressed to them before their grant is money_out_gate's staff refusal.
 */
export function payMoneyRequest(
  deps: AppDeps,
  payer: TagPayer,
  id: string,
  input: PayMoneyRequestInput,
  idempotencyKey: string | undefined,
  now: Date = new Date(),
  origin: ProofOrigin = {},
): Promise<TagPaymentResult> {
  return payByTag(
    deps,
    payer,
    { moneyRequestId: id, ...(input?.secondFactor ? { secondFactor: input.secondFactor } : {}) },
    idempotencyKey,
    now,
    origin,
  );
}
