import { z } from "zod";
import { ERROR_REASONS, type ErrorReason } from "@/contract/error-reasons";
import { SECOND_FACTOR_METHODS } from "@/contract/security";

/**
 * Every code an error body can carry. The server maps each to one HTTP status (server/lib/errors.ts); the web
 * branches on the code and the reason (contract/error-reasons.ts), never on the message text.
 */
export const ERROR_CODES = [
  "BAD_REQUEST",
  "VALIDATION",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "CONFLICT",
  "GONE",
  "PAYLOAD_TOO_LARGE",
  "URI_TOO_LONG",
  "UNSUPPORTED_MEDIA_TYPE",
  "UNPROCESSABLE",
  "RATE_LIMITED",
  "INTERNAL",
  "UNAVAILABLE",
] as const;
export const errorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof errorCode>;

const flag = z.literal(true);

/**
 * The flags a refusal may carry next to its message (spec §8): `true` names what went wrong and is set only
 * through a reason (contract/error-reasons.ts); the other fields (details) say by how much or what to offer.
 * All optional: each error sets only its own.
 */
export const errorFlags = z
  .object({
    // Sign-in, codes and second factors.
    invalidCode: flag,
    emailNotVerified: flag,
    emailTaken: flag,
    pillarTagTaken: flag,
    registrationChanged: flag,
    commonPassword: flag,
    currentPasswordWrong: flag,
    passwordWrong: flag,
    passwordResetRequired: flag,
    loginExpired: flag,
    secondFactorRequired: flag,
    secondFactorInvalid: flag,
    /** Too many wrong second-factor proofs in a row: codes are refused until the owner proves the e-mail. */
    secondFactorLocked: flag,
    stepUpRequired: flag,
    /** The second factors the customer can prove with (stepUpRequired, secondFactorRequired). */
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)).readonly(),
    noSecondFactor: flag,
    totpAlreadyEnabled: flag,
    totpNotEnabled: flag,
    totpNotPending: flag,
    passkeyInvalid: flag,
    passkeyExists: flag,
    tooManyPasskeys: flag,
    passkeysUnavailable: flag,
    noPasskey: flag,
    phoneLocked: flag,
    // Account state and freezing.
    accountFrozen: flag,
    notFrozen: flag,
    freezeLinkInvalid: flag,
    freezeLinkExpired: flag,
    freezeLinkUsed: flag,
    /** The account is closed (decision 059): it neither sends nor receives. */
    accountClosed: flag,
    /** When it was closed (ISO 8601). */
    closedAt: z.string(),
    /** Staff tried to delete a customer with money history: close the account instead. */
    hasMoneyHistory: flag,
    /** Something keeps the account from closing; `closureBlocker` says what. */
    closureBlocked: flag,
    closureBlocker: z.string(),
    // KYC and documents.
    phoneNumberRequired: flag,
    ssnDuplicate: flag,
    ssnUnreadable: flag,
    applicationExists: flag,
    kycNotEditable: flag,
    /** The document a document error is about. */
    documentType: z.string(),
    uploadConcurrencyLimit: flag,
    uploadDailyLimit: flag,
    /** A name holds invisible characters or mixes alphabets within a word (contract/person-name.ts); `field` names it. */
    nameCharactersInvalid: flag,
    /** The state is not a US state, DC, territory or military code (contract/us-states.ts); `field` names it. */
    stateInvalid: flag,
    // Money out.
    accountSetupIncomplete: flag,
    insufficientFunds: flag,
    availableBalance: z.string(),
    withdrawalLimitExceeded: flag,
    remainingToday: z.string(),
    dailyCountLimitExceeded: flag,
    dailyCountLimit: z.number(),
    idempotencyKeyRequired: flag,
    lookalikeAddress: flag,
    lookalikeRecipientName: z.string(),
    unchecksummedAddress: flag,
    addressChecksumMismatch: flag,
    walletLimitExceeded: flag,
    /** The customer's own "Block crypto sends" is on, or its cooldown runs (decision 035). */
    sendsBlocked: flag,
    /** When a running cooldown ends (ISO 8601); absent while the block is on. */
    blockedUntil: z.string(),
    /** The amount is over the customer's own daily limit (decision 035). */
    personalLimitExceeded: flag,
    personalDailyLimit: z.string(),
    /** A send block's cooldown can only get longer while the block is on. */
    cooldownCannotShorten: flag,
    /** The change needs the account password (no second factor to step up with; decision 047). */
    passwordConfirmRequired: flag,
    /** A lift of a send block that is not in force. */
    notSendsBlocked: flag,
    /** No customer can be paid at this $tag: the same answer whether it exists or not. */
    tagUnavailable: flag,
    /** A payment by $tag to the payer's own tag. */
    selfPayment: flag,
    /** Savings (decision 068): one open savings account per customer; moves need it open; a goal must be theirs. */
    savingsAlreadyOpen: flag,
    savingsNotOpen: flag,
    savingsGoalNotFound: flag,
    /** A money request that is no longer open (paid, declined or cancelled). */
    moneyRequestClosed: flag,
    /** Too many open requests to the same $tag. */
    tooManyMoneyRequests: flag,
    /** Too many requests from one customer to the same $tag today (New York day; decision 037). */
    moneyRequestDailyCap: flag,
    /** A money request's own state when it was refused. */
    moneyRequestStatus: z.string(),
    // Saved recipients.
    customersOnly: flag,
    duplicateRecipient: flag,
    savedAs: z.string(),
    recipientLimitReached: flag,
    recipientLimit: z.number(),
    // Scheduled transfers.
    scheduleLimitReached: flag,
    scheduleStateConflict: flag,
    // Staff roles and maker-checker.
    roleRequired: flag,
    allowedRoles: z.array(z.string()).readonly(),
    reasonRequired: flag,
    /** The input field an error is about (e.g. "reason"). */
    field: z.string(),
    approvalPending: flag,
    approvalDecided: flag,
    staleApproval: flag,
    /** A flagged transfer (or a frozen account's) moves on only with a second staff member. */
    transferHeld: flag,
    selfApproval: flag,
    customerGone: flag,
    balanceChanged: flag,
    /** A test e-mail goes to staff addresses only. */
    testMailStaffOnly: flag,
    customerAccount: flag,
    /** The account holds a staff role, and staff never bank: no money in, no KYC, no recipients, no transfers. */
    staffAccount: flag,
    /** The customer has no open (approved) checking account, so no money can be credited to them. */
    accountNotOpen: flag,
    /** An account request cannot be approved while the identity check is not approved. */
    identityNotApproved: flag,
    lastOwner: flag,
    ownerByConfig: flag,
    /** The current status of what could not move (a KYC application, an approval). */
    status: z.string(),
    // Compliance (sanctions screening): staff only, never shown to the customer.
    /** A sanctions list file was refused: `file` names it and `line` the first bad line. */
    listFileInvalid: flag,
    file: z.string(),
    line: z.number(),
    caseDecided: flag,
    /** A transfer of a customer with an open or confirmed compliance case does not move. */
    complianceHold: flag,
    /**
     * The customer's cancel of a transfer under review (a compliance hold: blocked, not returned, decision 048).
     * Named for what the customer may know: never the case or the list.
     */
    transferUnderReview: flag,
    /** Payouts settle on chain (CHAIN_RPC_URL set): staff cannot complete or move a transfer the chain settles. */
    chainSettlement: flag,
    /** KYC approval waits for the customer's open compliance case. */
    complianceCaseOpen: flag,
    // Paging and limits.
    invalidCursor: flag,
    retryAfterSeconds: z.number(),
    /**
     * The database could not be reached or lost the connection, possibly during the commit, so whether a
     * write happened is unknown: sending the same request again (with its Idempotency-Key) gives the answer.
     */
    retryable: flag,
  })
  .partial();
export type ErrorFlags = z.infer<typeof errorFlags>;
/** The `true` flags: each comes with the reason that sets it, never on its own. */
export type ErrorFlagName = {
  [K in keyof ErrorFlags]-?: NonNullable<ErrorFlags[K]> extends true ? K : never;
}[keyof ErrorFlags];
/** What an error says besides its reason's flags: by how much, which field, which methods. */
export type ErrorDetails = Omit<ErrorFlags, ErrorFlagName>;

/** Every domain reason (contract/error-reasons.ts), as the error body's enum. */
export const errorReason = z.enum(Object.keys(ERROR_REASONS) as [ErrorReason, ...ErrorReason[]]);

/** The JSON body of every 4xx/5xx answer: `{ message, code, reason?, requestId, …flags }`. */
export const errorBody = z.object({
  message: z.string(),
  code: errorCode,
  /** The domain reason, on every error that carries a flag: what the web switches on. */
  reason: errorReason.optional(),
  /** Also in the x-request-id header: quote it to support. */
  requestId: z.string(),
  ...errorFlags.shape,
});
export type ErrorBody = z.infer<typeof errorBody>;

type Reasons = typeof ERROR_REASONS;

/**
 * One reason's body (decision 075): the envelope with its code and reason fixed and its reason's flags present
 * (other flags and details optional: a stale approval keeps the flags of what made it stale).
 */
export type ErrorBodyOf<R extends ErrorReason> = Omit<ErrorBody, "code" | "reason"> & {
  code: Reasons[R]["code"];
  reason: R;
} & { [F in Reasons[R]["flags"][number]]: true };

/** A refusal no client branches on: a bare code (a schema's 400, a 404, a 429) and no reason. */
export type BareErrorBody = Omit<ErrorBody, "reason"> & { reason?: undefined };

/** Every error body, as a union keyed by `reason`: one variant per reason, and the bare one without. */
export type AnyErrorBody = BareErrorBody | { [R in ErrorReason]: ErrorBodyOf<R> }[ErrorReason];

/** The union's schema: what every error answer parses as (the abuse matrix checks each one it sees). */
export const errorBodyByReason = z.union([
  errorBody.extend({ reason: z.undefined().optional() }),
  ...(Object.entries(ERROR_REASONS) as [ErrorReason, Reasons[ErrorReason]][]).map(([reason, entry]) =>
    errorBody.extend({
      code: z.literal(entry.code),
      reason: z.literal(reason),
      ...Object.fromEntries(entry.flags.map((flag) => [flag, z.literal(true)])),
    }),
  ),
]);
