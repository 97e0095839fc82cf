import { createHash, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { parseMoney } from "@/contract/money";
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
import type { DbOrTx } from "@/server/db/client";
import { idempotencyKeys, type transferRequests } from "@/server/db/schema";
import { type ProofOrigin, verifySecondFactor } from "@/server/features/auth/second-factor";
import { countingSecondFactorFailures } from "@/server/features/auth/second-factor-lock";
import { learnActiveSanctionsList } from "@/server/features/compliance/sanctions-index";
import { monitoringConfig } from "@/server/features/monitoring/monitoring-config";
import { newDeviceRuleAtRequest } from "@/server/features/monitoring/rules";
import { checkedAddress } from "@/server/features/transfers/address-checksum";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import {
  type CreateTransferResult,
  makeTransfer,
  type PayeeScreen,
  SanctionsListChanged,
  screenPayee,
  type TransferAuthority,
  type TransferMaker,
} from "@/server/features/transfers/transfer-attempt";
import { transferBinding } from "@/server/features/transfers/transfer-binding";
import type { CreateTransferCall } from "@/server/features/transfers/transfer-function";
import { toTransferRequest } from "@/server/features/transfers/transfer-view";
import { AppError } from "@/server/lib/errors";
import { SESSION_IDLE_SECONDS, SESSION_TOUCH_SECONDS, sessionUserOf } from "@/server/lib/session";
import { sessionEnded } from "@/server/lib/session-plugin";

type TransferRow = typeof transferRequests.$inferSelect;

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
 * the binding recomputed from the submitted fields; an already-answered key needs no proof and is skipped. The
 * session is asked first: the route trusts its cached session because the call checks it, and a proof tried from
 * a session ended elsewhere must not count against the account.
 */
async function verifyPasskeyBeforeTransaction(
  deps: AppDeps,
  user: TransferMaker,
  input: CreateTransferInput,
  idempotencyKey: string | undefined,
): Promise<boolean> {
  const proof = input.secondFactor;
  if (proof?.method !== "passkey") return false;
  if (idempotencyKey === undefined) {
    throw new AppError("idempotency_key_required", SECURITY_MESSAGES.idempotencyKeyRequired);
  }
  const userId = user.id;
  if (await isAnsweredTransferKey(deps.database.db, userId, idempotencyKey)) return false;
  if (user.session && (await sessionUserOf(deps.database.db, user.session.idHash)) !== userId) {
    throw sessionEnded(user.session);
  }
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

/** Staff never bank: refused before anything else, and again by the function under the wallet lock. */
const staffCannotTransfer = () => new AppError("staff_account", TRANSFER_MESSAGES.adminCannotTransfer);

/** How many times a request screens again after the function named a newer list (one is the rule). */
const SCREENS_PER_REQUEST = 3;

/**
 * Creates an outgoing USDC transfer request. The session, the checks, the screening of the address, the rule that
 * holds a transfer at once, the hold, the pending debit, the request, its idempotency record and its event are one
 * call of the create_transfer_request function under the wallet lock: one round trip when no one-time code must be
 * spent and nothing is listed, shared with the customer's other requests that arrive while one is running
 * (decision 012). The payee's name is screened in memory before it. The "Transfer requested" mail, the monitoring
 * rules that do not block and the customer's pushed notice follow the commit in the jobs room (decision 049). With
 * an Idempotency-Key, a replay of the same body returns the first response unchanged.
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
  if (user.session === null && authority.scheduleRunKey === undefined) {
    throw new AppError("INTERNAL", "A transfer needs a session or a schedule run");
  }
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new AppError("VALIDATION", TRANSFER_MESSAGES.idempotencyKeyInvalid);
  }
  const { amount, address: typed } = validate(input);
  const address = checkedAddress(deps.config, typed, input.confirmUnchecksummedAddress);
  const passkeyVerified =
    authority.scheduleRunKey !== undefined ||
    (await verifyPasskeyBeforeTransaction(deps, user, input, idempotencyKey));
  const day = limitDayOf(now);
  const fee = feeFor(amount);
  const transfer: TransferRow = {
    id: randomUUID(),
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
  const rule = newDeviceRuleAtRequest(monitoringConfig());
  const call = (screen: PayeeScreen, secondFactorOk: boolean, filesHits: boolean): CreateTransferCall => ({
    user_id: user.id,
    session_id_hash: user.session?.idHash ?? null,
    session_idle_seconds: SESSION_IDLE_SECONDS,
    session_touch_seconds: SESSION_TOUCH_SECONDS,
    idempotency_key: idempotencyKey ?? null,
    request_hash: requestHash(input),
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
    response: {
      message: "Transfer request submitted successfully",
      transferRequest: toTransferRequest(transfer),
    },
    under_review_message: TRANSFER_MESSAGES.underReview,
    sanctions_list_id: screen.list?.id ?? null,
    name_listed: screen.hits.length > 0,
    files_hits: filesHits,
    refuse_review: authority.scheduleRunKey !== undefined,
    blocking_rule: rule && {
      device_window_hours: rule.deviceWindowHours,
      established_days: rule.establishedDays,
      min_amount_cents: rule.minAmountCents,
      cooldown_days: rule.cooldownDays,
      lookback_days: monitoringConfig().lookbackDays,
    },
    // Skipped once the customer confirmed the address.
    check_lookalike: input.confirmLookalikeAddress !== true,
    schedule_run_key: transfer.scheduleRunKey,
  });
  const attempt = {
    deps,
    user,
    input,
    idempotencyKey,
    origin,
    passkeyVerified,
    address,
    amountCents: amount,
    call,
  };
  for (let screens = 1; ; screens++) {
    try {
      return await makeTransfer(attempt, await screenPayee(deps, input.recipientName), authority);
    } catch (err) {
      if (!(err instanceof SanctionsListChanged) || screens >= SCREENS_PER_REQUEST) throw err;
      learnActiveSanctionsList(deps.database.db, err.active);
    }
  }
}
