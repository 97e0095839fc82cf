import { eq } from "drizzle-orm";
import { SECURITY_MESSAGES } from "@/contract/security";
import { type CreateTransferInput, TRANSFER_MESSAGES } from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import type { Tx } from "@/server/db/client";
import { transferRequests } from "@/server/db/schema";
import {
  getSecondFactorState,
  type ProofOrigin,
  secondFactorInvalid,
  spendCodeProof,
  stepUpRequired,
} from "@/server/features/auth/second-factor";
import type { SanctionsIndex } from "@/server/features/compliance/list-index";
import { knownActiveSanctionsIndex, type ListVersion } from "@/server/features/compliance/sanctions-index";
import { addressHits, nameHits, recordHits, type SanctionsHit } from "@/server/features/compliance/screen";
import { monitoringConfig } from "@/server/features/monitoring/monitoring-config";
import { recordAlerts } from "@/server/features/monitoring/record-alerts";
import { type MoneyEvent, newDeviceAlertAt } from "@/server/features/monitoring/rules";
import { isRefusalOutcome, moneyOutRefusal } from "@/server/features/transfers/money-out-refusal";
import {
  type CreateTransferCall,
  callCreateTransfer,
  createTransferOnWallet,
  type OutcomeRow,
  type TransferAnswer,
} from "@/server/features/transfers/transfer-function";
import { toTransferRequest } from "@/server/features/transfers/transfer-view";
import { AppError } from "@/server/lib/errors";
import type { SessionRef } from "@/server/lib/session";
import { sessionEnded } from "@/server/lib/session-plugin";

// One try at a transfer request (create-transfer.ts builds the call and tries again when the sanctions list it
// screened against is no longer the active one): which path it takes, and what each outcome of the function means.

export interface CreateTransferResult {
  statusCode: number;
  body: TransferAnswer;
  replayed: boolean;
}

/**
 * Who vouched for a transfer made without the customer present: a scheduled run (decision 036) was proven with
 * the second factor when the customer made or edited its schedule, so the run itself asks for none and has no
 * session. Its reference ('schedule:<id>:<date>') goes on the transfer, a run made before answers with that
 * transfer, never a second, and a run that would wait under review is refused (runUnderReview).
 */
export interface TransferAuthority {
  scheduleRunKey?: string;
}

export interface TransferMaker {
  id: string;
  isAdmin: boolean;
  /** The request's session, which the function checks; null for a scheduled run. */
  session: SessionRef | null;
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

function refusal(deps: AppDeps, row: OutcomeRow): AppError {
  if (row.outcome === "idempotency_mismatch") {
    return new AppError("CONFLICT", TRANSFER_MESSAGES.idempotencyMismatch);
  }
  if (!isRefusalOutcome(row.outcome)) {
    return new AppError("INTERNAL", `Unexpected transfer outcome ${row.outcome}`);
  }
  return moneyOutRefusal(deps, row.outcome, row.detail);
}

/** A scheduled run that would wait under review is not made (run-schedule.ts skips it, the customer told). */
const runUnderReview = () => new AppError("transfer_under_review", TRANSFER_MESSAGES.underReview);

/** Thrown out of an attempt (and its transaction) when another sanctions list is active than the one screened. */
export class SanctionsListChanged extends Error {
  constructor(readonly active: ListVersion | null) {
    super("The active sanctions list changed");
  }
}

function listVersionOf(detail: string | null): ListVersion | null {
  if (detail === null) return null;
  const [id, version] = detail.split(":");
  return { id: id!, version: Number(version) };
}

/** The payee's name screened in memory against the active list as this process knows it. */
export interface PayeeScreen {
  list: ListVersion | null;
  index: SanctionsIndex | null;
  hits: SanctionsHit[];
}

export async function screenPayee(deps: AppDeps, name: string): Promise<PayeeScreen> {
  const { list, index } = await knownActiveSanctionsIndex(deps.database.db);
  const hits = index
    ? nameHits(index, { names: [{ value: name, type: null }] }, deps.config.sanctionsNameThreshold)
    : [];
  return { list, index, hits };
}

export interface Attempt {
  deps: AppDeps;
  user: TransferMaker;
  input: CreateTransferInput;
  idempotencyKey: string | undefined;
  origin: ProofOrigin;
  passkeyVerified: boolean;
  address: string;
  amountCents: number;
  call: (screen: PayeeScreen, secondFactorOk: boolean, filesHits: boolean) => CreateTransferCall;
}

/**
 * One try at the request with one screen of the payee. The common path (no code to spend, nothing listed) is the
 * one autocommit call, gathered per wallet. A one-time code is spent in the transaction that makes the transfer,
 * between the checks that come before the second factor (under the lock) and the ones after it; a listed name or
 * address makes the transfer in a transaction that files its hits, so it never exists unheld without its case.
 */
export async function makeTransfer(a: Attempt, screen: PayeeScreen, authority: TransferAuthority) {
  const { deps, user, input, idempotencyKey } = a;
  if (authority.scheduleRunKey !== undefined && screen.hits.length > 0) throw runUnderReview();
  const proof = input.secondFactor;
  const secondFactorRefusal = async (): Promise<AppError> => {
    if (!proof) return stepUpRequired((await getSecondFactorState(deps.database.db, user.id)).methods);
    if (idempotencyKey === undefined) {
      return new AppError("idempotency_key_required", SECURITY_MESSAGES.idempotencyKeyRequired);
    }
    return secondFactorInvalid("passkey");
  };
  const answer = async (row: OutcomeRow): Promise<CreateTransferResult> => {
    if (row.outcome === "created") return { statusCode: 201, body: row.response!, replayed: false };
    if (row.outcome === "replayed")
      return { statusCode: row.status_code!, body: row.response!, replayed: true };
    if (row.outcome === "schedule_run_made") return scheduleRunMade(deps, row.detail!);
    if (row.outcome === "sanctions_list_changed") throw new SanctionsListChanged(listVersionOf(row.detail));
    if (row.outcome === "session_ended" && user.session) throw sessionEnded(user.session);
    if (row.outcome === "under_review") throw runUnderReview();
    throw refusal(deps, row);
  };
  const fileHits = async (tx: Tx, row: OutcomeRow): Promise<CreateTransferResult> => {
    const created = await answer(row);
    const hits = [
      ...screen.hits,
      ...(screen.index ? addressHits(screen.index, [a.address], row.listed ?? []) : []),
    ];
    if (!created.replayed && hits.length > 0) {
      await recordHits(tx, {
        userId: user.id,
        point: "transfer",
        hits,
        transferId: created.body.transferRequest.id,
      });
    }
    // The blocking monitoring rule held it (detail: the new device's time): its alert commits with it. The
    // monitoring consumer files the same alert from the event again, which its dedupe key makes a no-op.
    if (row.outcome === "created" && row.detail !== null) {
      const transfer = created.body.transferRequest;
      const event: MoneyEvent = {
        kind: "transfer",
        id: transfer.id,
        at: Date.parse(transfer.createdAt),
        amountCents: a.amountCents,
        address: a.address.toLowerCase(),
      };
      await recordAlerts(tx, user.id, event, [
        newDeviceAlertAt(event, Date.parse(row.detail), monitoringConfig()),
      ]);
    }
    return created;
  };
  const inTransaction = () =>
    deps.database.db.transaction(async (tx) => {
      const row = await callCreateTransfer(deps, tx, a.call(screen, a.passkeyVerified, true));
      if (row.outcome === "second_factor_required") throw await secondFactorRefusal();
      return fileHits(tx, row);
    });

  if (proof && proof.method !== "passkey" && idempotencyKey !== undefined) {
    return deps.database.db.transaction(async (tx) => {
      const first = await callCreateTransfer(deps, tx, a.call(screen, false, true));
      if (first.outcome !== "second_factor_required") return fileHits(tx, first);
      await spendCodeProof(deps, tx, user.id, proof, a.origin);
      return fileHits(tx, await callCreateTransfer(deps, tx, a.call(screen, true, true)));
    });
  }
  if (screen.hits.length > 0) return inTransaction();
  const row = await createTransferOnWallet(deps, a.call(screen, a.passkeyVerified, false));
  if (row.outcome === "second_factor_required") throw await secondFactorRefusal();
  // A listed address: nothing was written; the transfer is made again in a transaction that files the hit.
  // A listed address or a transfer the blocking monitoring rule holds: nothing was written; the transfer is made
  // again in a transaction that files the hit or the alert.
  if (row.outcome === "address_listed" || row.outcome === "alert_held") return inTransaction();
  return answer(row);
}
