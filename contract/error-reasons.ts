import type { ErrorCode, ErrorFlagName } from "@/contract/errors";

interface ErrorReasonEntry {
  /** The error body's `code`; `status` is its one HTTP status (server/lib/errors.ts ERROR_STATUS). */
  code: ErrorCode;
  status: number;
  /** The spec's flags this reason sets to `true`, kept on the wire for clients that read them (decision 023). */
  flags: readonly [ErrorFlagName, ...ErrorFlagName[]];
}

/**
 * Every domain reason an error body can carry (`reason`, decision 023), with its code, status and flags. The
 * server's AppError takes a reason and sets the flags from this table, so no flag is ever set without its
 * reason; the web switches on `reason`. A reason names one situation: where the same flag answers with two
 * statuses (staffAccount: 403 on the customer's own request, 409 on staff's credit), it is two reasons.
 */
export const ERROR_REASONS = {
  // Sign-up, sign-in and codes.
  invalid_code: { code: "BAD_REQUEST", status: 400, flags: ["invalidCode"] },
  email_not_verified: { code: "FORBIDDEN", status: 403, flags: ["emailNotVerified"] },
  /** Registering an e-mail whose account was never verified: the new details replace it and a code goes out. */
  registration_unverified: { code: "CONFLICT", status: 409, flags: ["emailNotVerified"] },
  email_taken: { code: "CONFLICT", status: 409, flags: ["emailTaken"] },
  pillar_tag_taken: { code: "CONFLICT", status: 409, flags: ["pillarTagTaken"] },
  registration_changed: { code: "CONFLICT", status: 409, flags: ["registrationChanged"] },
  common_password: { code: "VALIDATION", status: 400, flags: ["commonPassword"] },
  current_password_wrong: { code: "BAD_REQUEST", status: 400, flags: ["currentPasswordWrong"] },
  password_wrong: { code: "BAD_REQUEST", status: 400, flags: ["passwordWrong"] },
  password_reset_required: { code: "FORBIDDEN", status: 403, flags: ["passwordResetRequired"] },
  login_expired: { code: "UNAUTHORIZED", status: 401, flags: ["loginExpired"] },
  // Second factors.
  /** Staff without a second factor while ADMIN_REQUIRE_2FA is on. */
  admin_second_factor_required: { code: "FORBIDDEN", status: 403, flags: ["secondFactorRequired"] },
  second_factor_invalid: { code: "BAD_REQUEST", status: 400, flags: ["secondFactorInvalid"] },
  second_factor_locked: { code: "FORBIDDEN", status: 403, flags: ["secondFactorLocked"] },
  step_up_required: { code: "FORBIDDEN", status: 403, flags: ["stepUpRequired"] },
  no_second_factor: { code: "BAD_REQUEST", status: 400, flags: ["noSecondFactor"] },
  totp_already_enabled: { code: "CONFLICT", status: 409, flags: ["totpAlreadyEnabled"] },
  totp_not_enabled: { code: "CONFLICT", status: 409, flags: ["totpNotEnabled"] },
  totp_not_pending: { code: "CONFLICT", status: 409, flags: ["totpNotPending"] },
  passkey_login_failed: { code: "UNAUTHORIZED", status: 401, flags: ["passkeyInvalid"] },
  passkey_registration_failed: { code: "BAD_REQUEST", status: 400, flags: ["passkeyInvalid"] },
  passkey_exists: { code: "CONFLICT", status: 409, flags: ["passkeyExists"] },
  too_many_passkeys: { code: "CONFLICT", status: 409, flags: ["tooManyPasskeys"] },
  passkeys_unavailable: { code: "FORBIDDEN", status: 403, flags: ["passkeysUnavailable"] },
  no_passkey: { code: "BAD_REQUEST", status: 400, flags: ["noPasskey"] },
  phone_locked: { code: "CONFLICT", status: 409, flags: ["phoneLocked"] },
  // Account state and freezing.
  account_frozen: { code: "FORBIDDEN", status: 403, flags: ["accountFrozen"] },
  not_frozen: { code: "CONFLICT", status: 409, flags: ["notFrozen"] },
  freeze_link_invalid: { code: "BAD_REQUEST", status: 400, flags: ["freezeLinkInvalid"] },
  freeze_link_expired: { code: "GONE", status: 410, flags: ["freezeLinkExpired"] },
  freeze_link_used: { code: "GONE", status: 410, flags: ["freezeLinkUsed"] },
  // Account closure (decision 059): money in and out of a closed account, and what keeps one from closing.
  account_closed: { code: "FORBIDDEN", status: 403, flags: ["accountClosed"] },
  account_already_closed: { code: "CONFLICT", status: 409, flags: ["accountClosed"] },
  /** A customer with money history is closed, never deleted. */
  has_money_history: { code: "CONFLICT", status: 409, flags: ["hasMoneyHistory"] },
  /** `closureBlocker` names what keeps the account open (contract/closure.ts CLOSURE_BLOCKERS). */
  closure_blocked: { code: "CONFLICT", status: 409, flags: ["closureBlocked"] },
  // KYC and documents.
  phone_number_required: { code: "BAD_REQUEST", status: 400, flags: ["phoneNumberRequired"] },
  ssn_duplicate: { code: "CONFLICT", status: 409, flags: ["ssnDuplicate"] },
  ssn_unreadable: { code: "CONFLICT", status: 409, flags: ["ssnUnreadable"] },
  application_exists: { code: "CONFLICT", status: 409, flags: ["applicationExists"] },
  kyc_not_editable: { code: "CONFLICT", status: 409, flags: ["kycNotEditable"] },
  upload_concurrency_limit: { code: "RATE_LIMITED", status: 429, flags: ["uploadConcurrencyLimit"] },
  upload_daily_limit: { code: "RATE_LIMITED", status: 429, flags: ["uploadDailyLimit"] },
  // Input rules the contract's schemas check themselves (a custom issue naming its reason).
  name_characters_invalid: { code: "VALIDATION", status: 400, flags: ["nameCharactersInvalid"] },
  state_invalid: { code: "VALIDATION", status: 400, flags: ["stateInvalid"] },
  // Money out. The create_transfer_request function's refusal outcomes are these reasons' names.
  /** A customer's own banking request from an account holding a staff role: staff never bank. */
  staff_account: { code: "FORBIDDEN", status: 403, flags: ["staffAccount"] },
  setup_incomplete: { code: "FORBIDDEN", status: 403, flags: ["accountSetupIncomplete"] },
  insufficient_funds: { code: "UNPROCESSABLE", status: 422, flags: ["insufficientFunds"] },
  /** The hold's CHECK lost a race with another debit after the balance was read: the money is no longer there. */
  hold_insufficient_funds: { code: "CONFLICT", status: 409, flags: ["insufficientFunds"] },
  daily_limit: { code: "UNPROCESSABLE", status: 422, flags: ["withdrawalLimitExceeded"] },
  daily_count_limit: { code: "UNPROCESSABLE", status: 422, flags: ["dailyCountLimitExceeded"] },
  idempotency_key_required: { code: "VALIDATION", status: 400, flags: ["idempotencyKeyRequired"] },
  lookalike_address: { code: "UNPROCESSABLE", status: 422, flags: ["lookalikeAddress"] },
  // Chain settlement's destination checks at the request (decision 044).
  unchecksummed_address: { code: "UNPROCESSABLE", status: 422, flags: ["unchecksummedAddress"] },
  address_checksum_mismatch: { code: "UNPROCESSABLE", status: 422, flags: ["addressChecksumMismatch"] },
  wallet_limit_exceeded: { code: "UNPROCESSABLE", status: 422, flags: ["walletLimitExceeded"] },
  // The customer's own limits (decision 035).
  sends_blocked: { code: "FORBIDDEN", status: 403, flags: ["sendsBlocked"] },
  personal_daily_limit: { code: "UNPROCESSABLE", status: 422, flags: ["personalLimitExceeded"] },
  cooldown_shorter: { code: "CONFLICT", status: 409, flags: ["cooldownCannotShorten"] },
  /** Lowering the limit or switching the block on, by a customer with no second factor: the password (047). */
  password_confirm_required: { code: "FORBIDDEN", status: 403, flags: ["passwordConfirmRequired"] },
  /** Lifting a block that is not in force (decision 047). */
  not_sends_blocked: { code: "CONFLICT", status: 409, flags: ["notSendsBlocked"] },
  // Payments by $tag (decision 035).
  tag_unavailable: { code: "NOT_FOUND", status: 404, flags: ["tagUnavailable"] },
  self_payment: { code: "VALIDATION", status: 400, flags: ["selfPayment"] },
  // Savings (decision 068).
  savings_already_open: { code: "CONFLICT", status: 409, flags: ["savingsAlreadyOpen"] },
  savings_not_open: { code: "CONFLICT", status: 409, flags: ["savingsNotOpen"] },
  savings_goal_not_found: { code: "NOT_FOUND", status: 404, flags: ["savingsGoalNotFound"] },
  // Money requests by $tag (decision 037).
  money_request_closed: { code: "CONFLICT", status: 409, flags: ["moneyRequestClosed"] },
  too_many_money_requests: { code: "RATE_LIMITED", status: 429, flags: ["tooManyMoneyRequests"] },
  money_request_daily_cap: { code: "RATE_LIMITED", status: 429, flags: ["moneyRequestDailyCap"] },
  // Saved recipients.
  customers_only: { code: "FORBIDDEN", status: 403, flags: ["customersOnly"] },
  duplicate_recipient: { code: "CONFLICT", status: 409, flags: ["duplicateRecipient"] },
  recipient_limit_reached: { code: "UNPROCESSABLE", status: 422, flags: ["recipientLimitReached"] },
  // Scheduled transfers (decision 036).
  schedule_limit_reached: { code: "UNPROCESSABLE", status: 422, flags: ["scheduleLimitReached"] },
  /** Pausing what is not running, resuming what is not paused, changing what has ended. */
  schedule_state: { code: "CONFLICT", status: 409, flags: ["scheduleStateConflict"] },
  // Staff roles and maker-checker.
  role_required: { code: "FORBIDDEN", status: 403, flags: ["roleRequired"] },
  reason_required: { code: "VALIDATION", status: 400, flags: ["reasonRequired"] },
  approval_pending: { code: "CONFLICT", status: 409, flags: ["approvalPending"] },
  approval_decided: { code: "CONFLICT", status: 409, flags: ["approvalDecided"] },
  /** The approved change no longer applies; the body keeps the flags of what made it stale. */
  stale_approval: { code: "CONFLICT", status: 409, flags: ["staleApproval"] },
  transfer_held: { code: "CONFLICT", status: 409, flags: ["transferHeld"] },
  self_approval: { code: "FORBIDDEN", status: 403, flags: ["selfApproval"] },
  customer_gone: { code: "CONFLICT", status: 409, flags: ["customerGone"] },
  balance_changed: { code: "CONFLICT", status: 409, flags: ["balanceChanged"] },
  /**
   * A test e-mail (Email Test tab) addressed to anyone but staff: samples never reach customers
   * (docs/architecture.md, Design notes).
   */
  test_mail_staff_only: { code: "UNPROCESSABLE", status: 422, flags: ["testMailStaffOnly"] },
  /** A staff role for someone who banks with us. */
  customer_account: { code: "CONFLICT", status: 409, flags: ["customerAccount"] },
  /** A staff role for someone with money on the account or on its way to it. */
  money_in_flight: { code: "CONFLICT", status: 409, flags: ["customerAccount"] },
  /** Money for an account holding a staff role (a payment, a credit, an approved change). */
  staff_cannot_receive: { code: "CONFLICT", status: 409, flags: ["staffAccount"] },
  account_not_open: { code: "CONFLICT", status: 409, flags: ["accountNotOpen"] },
  identity_not_approved: { code: "CONFLICT", status: 409, flags: ["identityNotApproved"] },
  last_owner: { code: "CONFLICT", status: 409, flags: ["lastOwner"] },
  owner_by_config: { code: "CONFLICT", status: 409, flags: ["ownerByConfig"] },
  // Paging.
  invalid_cursor: { code: "VALIDATION", status: 400, flags: ["invalidCursor"] },
  // Compliance (decisions 024, 025).
  case_decided: { code: "CONFLICT", status: 409, flags: ["caseDecided"] },
  /** A list file whose content is refused: the file and line are in the details. */
  list_file_rejected: { code: "UNPROCESSABLE", status: 422, flags: ["listFileInvalid"] },
  /** A list upload naming a file OFAC does not publish, or one file twice. */
  list_file_invalid: { code: "VALIDATION", status: 400, flags: ["listFileInvalid"] },
  compliance_case_open: { code: "CONFLICT", status: 409, flags: ["complianceCaseOpen"] },
  compliance_hold: { code: "CONFLICT", status: 409, flags: ["complianceHold"] },
  /** The customer cancels a transfer a compliance hold keeps (decision 048). */
  transfer_under_review: { code: "CONFLICT", status: 409, flags: ["transferUnderReview"] },
  // Chain settlement (decision 030).
  /** Staff set "completed" while payouts settle on chain: the chain completes a transfer. */
  completed_by_chain: { code: "CONFLICT", status: 409, flags: ["chainSettlement"] },
  /** Staff moved a transfer whose payout is queued or on chain: the payout worker settles it. */
  payout_in_flight: { code: "CONFLICT", status: 409, flags: ["chainSettlement"] },
  /** A chain-only action (reconcile, speed up) while settlement is manual (no CHAIN_RPC_URL) (decision 038). */
  manual_settlement: { code: "CONFLICT", status: 409, flags: ["chainSettlement"] },
  /** Another reconciliation of this chain is running: its report comes first (decision 038). */
  reconciliation_running: { code: "CONFLICT", status: 409, flags: ["chainSettlement"] },
  /** Speed up asked for a payout that is not sent and unmined (already mined, settled or not yet signed). */
  payout_not_stuck: { code: "CONFLICT", status: 409, flags: ["chainSettlement"] },
  /** Speed up would pay more per gas than CHAIN_MAX_FEE_GWEI allows: the payout goes when the fee falls (decision 058). */
  fee_ceiling: { code: "CONFLICT", status: 409, flags: ["chainSettlement"] },
  /** Settled outside Pillar asked for a payout that is settled, held, or whose own transaction may still be mined (decision 040). */
  payout_not_settleable: { code: "CONFLICT", status: 409, flags: ["chainSettlement"] },
  /** Decision 060: credited, held for a listed sender, not deep yet, or already on its way back. */
  deposit_not_returnable: { code: "CONFLICT", status: 409, flags: ["chainSettlement"] },
  /** The transaction named as the outside settlement is not a confirmed USDC transfer to the payout's address for its amount. */
  outside_tx_invalid: { code: "UNPROCESSABLE", status: 422, flags: ["chainSettlement"] },
  /** Acknowledging a reconciliation item that is not a difference, or one already acknowledged (decision 040). */
  not_a_difference: { code: "CONFLICT", status: 409, flags: ["chainSettlement"] },
  difference_acknowledged: { code: "CONFLICT", status: 409, flags: ["chainSettlement"] },
  // The database or another backing service is out of reach (a failover): the outcome may be unknown, and the
  // client's retry with the same Idempotency-Key finds it (decision 027).
  service_unavailable: { code: "UNAVAILABLE", status: 503, flags: ["retryable"] },
} as const satisfies Record<string, ErrorReasonEntry>;

export type ErrorReason = keyof typeof ERROR_REASONS;

/** Without zod (the web's first chunk reads reasons; the zod enum is `errorReason` in contract/errors.ts). */
export function isErrorReason(value: unknown): value is ErrorReason {
  return typeof value === "string" && Object.hasOwn(ERROR_REASONS, value);
}

/**
 * The refusals of money leaving a customer's checking (a transfer, a payment by $tag, a paid money request): the
 * account, the limits, the key and the second factor. The one list the endpoints' contracts share.
 */
export const MONEY_OUT_REASONS = [
  "staff_account",
  "account_frozen",
  "account_closed",
  "setup_incomplete",
  "insufficient_funds",
  "daily_limit",
  "daily_count_limit",
  "personal_daily_limit",
  "idempotency_key_required",
  "second_factor_invalid",
  "second_factor_locked",
  "step_up_required",
] as const satisfies readonly ErrorReason[];
