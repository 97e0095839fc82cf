import { createHash, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { formatMoney, parseMoney } from "@/contract/money";
import { RECIPIENT_MESSAGES } from "@/contract/recipients";
import { SECURITY_MESSAGES } from "@/contract/security";
import { guessCategory } from "@/contract/transaction-categories";
import {
  type CreateTransferInput,
  DAILY_LIMIT_CENTS,
  feeFor,
  isUsdcAddress,
  TRANSFER_MESSAGES,
} from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import type { DbOrTx, Tx } from "@/server/db/client";
import { idempotencyKeys, transferRequests } from "@/server/db/schema";
import {
  getSecondFactorState,
  type ProofOrigin,
  secondFactorInvalid,
  spendCodeProof,
  stepUpRequired,
  verifySecondFactor,
} from "@/server/features/auth/second-factor";
import { countingSecondFactorFailures } from "@/server/features/auth/second-factor-lock";
import { recordHits, screenTransferRequest } from "@/server/features/compliance/screen";
import {
  evaluateTransfer,
  fileAlertsAfterTransfer,
  fileTransferAlerts,
} from "@/server/features/monitoring/monitor-event";
import { FREEZE_LINK_TTL_SECONDS, newFreezeLink } from "@/server/features/security/freeze-links";
import { checkedAddress } from "@/server/features/transfers/address-checksum";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { isRefusalOutcome, moneyOutRefusal } from "@/server/features/transfers/money-out-refusal";
import { transferBinding } from "@/server/features/transfers/transfer-binding";
import {
  type CreateTransferCall,
  callCreateTransfer,
  createTransferOnWallet,
  type OutcomeRow,
  type TransferAnswer,
} from "@/server/features/transfers/transfer-function";
import { toTransferRequest } from "@/server/features/transfers/transfer-view";
import { AppError } from "@/server/lib/errors";
import { announceQueuedMail, outboxFields, wakeMailWorker } from "@/server/lib/mail/outbox";
import { transferRequestedMail } from "@/server/lib/mail/security-templates";

type TransferRow = typeof transferRequests.$inferSelect;

export interface CreateTransferResult {
  statusCode: number;
  body: TransferAnswer;
  replayed: boolean;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * What never changes the transfer made: the proof, and the customer's word that a lookalike address, or one
 * without a checksum, is right.
 */
const NOT_HASHED = new Set(["secondFactor", "confirmLookalikeAddress", "confirmUnchecksummedAddress"]);

/** An answered key replays without a new proof or confirmation: neither changes the transfer. */
function requestHash(input: CreateTransferInput): string {
  const canonical = JSON.stringify(
    Object.keys(input)
      .filter((k) => !NOT_HASHED.has(k))
      .sort()
      .map((k) => [k, input[k as keyof CreateTransferInput] ?? null]),
  );
  return createHash("sha256").update(canonical).digest("hex");
}

/** Shape checks that need no database: method, amount, address. */
function validate(input: CreateTransferInput) {
  if (input.paymentMethod === "ach") throw new AppError("BAD_REQUEST", TRANSFER_MESSAGES.achUnavailable);
  const amount = parseMoney(input.amount);
  if (amount === null) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountInvalid);
  if (amount <= 0) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountPositive);
  const address = input.cryptoAddress?.trim() ?? "";
  if (!address) throw new AppError("VALIDATION", "USDC wallet address is required");
  if (!isUsdcAddress(address)) throw new AppError("VALIDATION", TRANSFER_MESSAGES.addressInvalid);
  return { amount, address };
}

/** Whether this key already holds an answer for this customer: its replay must never be rate limited. */
export async function isAnsweredTransferKey(
  db: DbOrTx,
  userId: string,
  idempotencyKey: string | undefined,
): Promise<boolean> {
  if (idempotencyKey === undefined || !IDEMPOTENCY_KEY.test(idempotencyKey)) return false;
  const [answered] = await db
    .select({ key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, idempotencyKey)));
  return answered !== undefined;
}

/** The fields a passkey signs for this transfer; shared with the options route so both compute the same. */
export function bindingFor(
  input: Pick<CreateTransferInput, "amount" | "cryptoAddress" | "recipientName">,
  idempotencyKey: string,
): string {
  const { amount, address } = validate({ ...input, paymentMethod: "crypto" } as CreateTransferInput);
  return transferBinding({
    amountCents: amount,
    feeCents: feeFor(amount),
    cryptoAddress: address,
    recipientName: input.recipientName.trim(),
    idempotencyKey,
  });
}

/**
 * A passkey proof is checked before the transaction (the passkeys feature uses its own connection) against
 * the binding recomputed from the submitted fields; an already-answered key needs no proof and is skipped.
 */
async function verifyPasskeyBeforeTransaction(
  deps: AppDeps,
  userId: string,
  input: CreateTransferInput,
  idempotencyKey: string | undefined,
): Promise<boolean> {
  const proof = input.secondFactor;
  if (proof?.method !== "passkey") return false;
  if (idempotencyKey === undefined) {
    throw new AppError("idempotency_key_required", SECURITY_MESSAGES.idempotencyKeyRequired);
  }
  if (await isAnsweredTransferKey(deps.database.db, userId, idempotencyKey)) return false;
  await verifySecondFactor(deps, deps.database.db, userId, proof, {
    purpose: "transfer",
    binding: bindingFor(input, idempotencyKey),
  });
  return true;
}

/** An address imitating a saved recipient's, sent without the customer's explicit confirmation. */
export function lookalikeRefused(name: string): AppError {
  return new AppError("lookalike_address", RECIPIENT_MESSAGES.lookalikeRefused(name), {
    lookalikeRecipientName: name,
  });
}

/** The transfer a scheduled run made before, answered as a replay of it. */
async function scheduleRunMade(deps: AppDeps, transferId: string): Promise<CreateTransferResult> {
  const [made] = await deps.database.db
    .select()
    .from(transferRequests)
    .where(eq(transferRequests.id, transferId));
  if (!made) throw new AppError("INTERNAL", "A scheduled run's transfer vanished");
  const body = {
    message: "Transfer request submitted successfully",
    transferRequest: toTransferRequest(made),
  };
  return { statusCode: 201, body, replayed: true };
}

/** Staff never bank: refused before anything else, and again by the function under the wallet lock. */
const staffCannotTransfer = () => new AppError("staff_account", TRANSFER_MESSAGES.adminCannotTransfer);

function refusal(deps: AppDeps, row: OutcomeRow): AppError {
  if (row.outcome === "idempotency_mismatch") {
    return new AppError("CONFLICT", TRANSFER_MESSAGES.idempotencyMismatch);
  }
  if (!isRefusalOutcome(row.outcome)) {
    return new AppError("INTERNAL", `Unexpected transfer outcome ${row.outcome}`);
  }
  return moneyOutRefusal(deps, row.outcome, row.detail);
}

/**
 * Creates an outgoing USDC transfer request. The checks, the hold, the pending debit, the request, its
 * idempotency record, the "This wasn't me" link and the "Transfer requested" mail are one call of the
 * create_transfer_request function under the wallet lock: one round trip when no one-time code must be
 * spent, shared with the customer's other requests that arrive while one is running (decision 012). With an
 * Idempotency-Key, a replay of the same body returns the first response unchanged.
 */
export function createTransfer(
  deps: AppDeps,
  user: TransferMaker,
  input: CreateTransferInput,
  idempotencyKey: string | undefined,
  now: Date = new Date(),
  origin: ProofOrigin = {},
  authority: TransferAuthority = {},
): Promise<CreateTransferResult> {
  // A wrong code or passkey here counts against the account like one at sign-in (decision 018).
  return countingSecondFactorFailures(deps, user.id, () =>
    createTransferChecked(deps, user, input, idempotencyKey, now, origin, authority),
  );
}

/**
 * Who vouched for a transfer made without the customer present: a scheduled run (decision 036) was proven with
 * the second factor when the customer made or edited its schedule, so the run itself asks for none. Its reference
 * ('schedule:<id>:<date>') goes on the transfer, and a run made before answers with that transfer, never a second.
 */
export interface TransferAuthority {
  scheduleRunKey?: string;
}

interface TransferMaker {
  id: string;
  isAdmin: boolean;
  email: string;
  firstName: string;
}

async function createTransferChecked(
  deps: AppDeps,
  user: TransferMaker,
  input: CreateTransferInput,
  idempotencyKey: string | undefined,
  now: Date,
  origin: ProofOrigin,
  authority: TransferAuthority,
): Promise<CreateTransferResult> {
  if (user.isAdmin) throw staffCannotTransfer();
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new AppError("VALIDATION", TRANSFER_MESSAGES.idempotencyKeyInvalid);
  }
  const { amount, address: typed } = validate(input);
  const address = checkedAddress(deps.config, typed, input.confirmUnchecksummedAddress);
  const hash = requestHash(input);
  const passkeyVerified =
    authority.scheduleRunKey !== undefined ||
    (await verifyPasskeyBeforeTransaction(deps, user.id, input, idempotencyKey));
  // Sanctions screening before the function runs (it stays as it is): a hit, or a customer whose case is
  // open, still makes the transfer with its hold, but it waits under review and the hit is filed with it.
  // One round trip for the list and the customer's compliance hold (screenTransferRequest), and transaction
  // monitoring (decision 031) alongside: a blocking alert holds the transfer like a sanctions hit.
  const transferId = randomUUID();
  const [{ hits: sanctionsHits, complianceHold }, monitoring] = await Promise.all([
    screenTransferRequest(
      deps.database,
      user.id,
      { names: [{ value: input.recipientName }], addresses: [address] },
      deps.config.sanctionsNameThreshold,
    ),
    evaluateTransfer(deps.database.db, user.id, { id: transferId, amountCents: amount, address, at: now }),
  ]);
  const underReview = sanctionsHits.length > 0 || complianceHold || monitoring.blocking;

  const day = limitDayOf(now);
  const fee = feeFor(amount);
  const transfer: TransferRow = {
    id: transferId,
    userId: user.id,
    amount,
    fee,
    netAmount: amount - fee,
    recipientName: input.recipientName,
    recipientAccount: input.recipientAccount?.trim() || null,
    recipientRouting: "CRYPTO",
    purpose: input.purpose,
    category: input.category ? input.category : guessCategory(input.purpose),
    paymentMethod: "crypto",
    cryptoAddress: address,
    status: "pending",
    adminNotes: null,
    flaggedAt: null,
    holdId: null,
    transactionId: randomUUID(),
    limitDay: day,
    reviewedAt: null,
    settledAt: null,
    scheduleRunKey: authority.scheduleRunKey ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const body = {
    message: underReview ? TRANSFER_MESSAGES.underReview : "Transfer request submitted successfully",
    transferRequest: toTransferRequest(transfer),
  };
  const freezeLink = newFreezeLink(deps.config);
  const mail = transferRequestedMail(user.email, {
    firstName: user.firstName,
    when: now,
    amount: formatMoney(amount),
    recipientName: input.recipientName,
    address,
    freezeUrl: freezeLink.url,
  });
  const outbox = outboxFields(mail);
  const call = (secondFactorOk: boolean): CreateTransferCall => ({
    user_id: user.id,
    idempotency_key: idempotencyKey ?? null,
    request_hash: hash,
    limit_day: day,
    daily_limit_cents: DAILY_LIMIT_CENTS,
    daily_count_limit: deps.config.transferDailyCountLimit,
    second_factor_ok: secondFactorOk,
    transfer_id: transfer.id,
    transaction_id: transfer.transactionId!,
    hold_id: randomUUID(),
    amount_cents: amount,
    fee_cents: fee,
    recipient_name: transfer.recipientName,
    recipient_account: transfer.recipientAccount,
    purpose: transfer.purpose,
    category: transfer.category,
    crypto_address: address,
    description: `USDC transfer to ${input.recipientName}`,
    created_at: now.toISOString(),
    response: body,
    freeze_token_hash: freezeLink.tokenHash,
    freeze_ttl_seconds: FREEZE_LINK_TTL_SECONDS,
    mail_to: outbox.to,
    mail_subject: outbox.subject,
    mail_text: outbox.text,
    mail_html: outbox.html,
    mail_kind: outbox.kind,
    // Skipped once the customer confirmed the address.
    check_lookalike: input.confirmLookalikeAddress !== true,
    schedule_run_key: transfer.scheduleRunKey,
  });
  const answer = async (row: OutcomeRow): Promise<CreateTransferResult> => {
    if (row.outcome === "replayed")
      return { statusCode: row.status_code!, body: row.response!, replayed: true };
    if (row.outcome === "schedule_run_made") return scheduleRunMade(deps, row.detail!);
    if (row.outcome !== "created") throw refusal(deps, row);
    announceQueuedMail(mail);
    return { statusCode: 201, body, replayed: false };
  };

  const proof = input.secondFactor;
  const secondFactorRefusal = async (): Promise<AppError> => {
    if (!proof) return stepUpRequired((await getSecondFactorState(deps.database.db, user.id)).methods);
    if (idempotencyKey === undefined) {
      return new AppError("idempotency_key_required", SECURITY_MESSAGES.idempotencyKeyRequired);
    }
    return secondFactorInvalid("passkey");
  };
  const fileHits = async (tx: Tx, created: CreateTransferResult): Promise<CreateTransferResult> => {
    if (!created.replayed && sanctionsHits.length > 0) {
      await recordHits(tx, {
        userId: user.id,
        point: "transfer",
        hits: sanctionsHits,
        transferId: transfer.id,
      });
    }
    if (!created.replayed) await fileTransferAlerts(tx, user.id, monitoring);
    return created;
  };
  // A one-time code is spent in the transaction that makes the transfer, between the checks that come before
  // the second factor (under the lock) and the ones after it; everything else is the single call.
  let result: CreateTransferResult;
  if (proof && proof.method !== "passkey" && idempotencyKey !== undefined) {
    result = await deps.database.db.transaction(async (tx) => {
      const first = await callCreateTransfer(deps, tx, call(false));
      if (first.outcome !== "second_factor_required") return fileHits(tx, await answer(first));
      await spendCodeProof(deps, tx, user.id, proof, origin);
      return fileHits(tx, await answer(await callCreateTransfer(deps, tx, call(true))));
    });
  } else if (sanctionsHits.length > 0 || monitoring.blocking) {
    // Hits and holding alerts are filed in the transfer's own transaction: it never exists unheld without its case.
    result = await deps.database.db.transaction(async (tx) => {
      const row = await callCreateTransfer(deps, tx, call(passkeyVerified));
      if (row.outcome === "second_factor_required") throw await secondFactorRefusal();
      return fileHits(tx, await answer(row));
    });
  } else {
    const row = await createTransferOnWallet(deps, call(passkeyVerified));
    if (row.outcome === "second_factor_required") throw await secondFactorRefusal();
    result = await answer(row);
    // Alerts that hold nothing are filed once the transfer is made, keeping its one-call path.
    if (!result.replayed) await fileAlertsAfterTransfer(deps.database.db, user.id, monitoring);
  }
  if (!result.replayed) wakeMailWorker();
  return result;
}
