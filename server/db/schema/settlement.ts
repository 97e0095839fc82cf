import {
  bigint,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { approvals } from "@/server/db/schema/approvals";
import { createdAt } from "@/server/db/schema/columns";
import { complianceCases } from "@/server/db/schema/compliance";
import { users } from "@/server/db/schema/identity";
import { holds, journalEntries } from "@/server/db/schema/ledger";
import { transferRequests } from "@/server/db/schema/transfers";

/** A customer's USDC deposit address: derived from DEPOSIT_XPUB at `derivationIndex`, never reused (0024). */
export const depositAddresses = pgTable("deposit_addresses", {
  derivationIndex: integer("derivation_index")
    .primaryKey()
    .generatedByDefaultAsIdentity({ startWith: 0, minValue: 0 }),
  userId: uuid("user_id")
    .unique()
    .references(() => users.id, { onDelete: "set null" }),
  /** Lowercase 0x address; shown to customers in its EIP-55 checksummed form. */
  address: text("address").notNull().unique(),
  createdAt: createdAt(),
  /** xpub: derived from DEPOSIT_XPUB (no key here: not sweepable); create2: a forwarder's address (0050, decision 060). */
  kind: text("kind", { enum: ["xpub", "create2"] })
    .notNull()
    .default("xpub"),
  /** create2: the 32-byte salt (0x hex) the factory's sweep(salt) takes, and the factory (lowercase). */
  salt: text("salt"),
  factory: text("factory"),
});

/** One token Transfer log to a deposit address, credited at most once per (chain, hash, log index) (0024). */
export const chainDeposits = pgTable(
  "chain_deposits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    chainId: integer("chain_id").notNull(),
    txHash: text("tx_hash").notNull(),
    /** The log's place among its transaction's logs: with the hash, the deposit's identity (0046, decision 056). Null only on rows older than 0046 until the watcher fills it. */
    txLogIndex: integer("tx_log_index"),
    /** Where it was last seen: the block's log index, block number and hash move when a reorg mines it elsewhere. */
    logIndex: integer("log_index").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The token's 6-decimal units, as text (numeric(78,0) holds any uint256). */
    units: numeric("units", { precision: 78, scale: 0 }).notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    /** Units below a cent (units mod 10^4), never credited: decision 028. */
    dustUnits: integer("dust_units").notNull(),
    /** held: booked with an open hold while compliance reviews its sender (0033, decision 039). */
    /** reversed: booked, then a reorg deeper than the confirmations took its log away (0046, decision 056). */
    status: text("status", { enum: ["pending", "held", "credited", "below_cent", "reversed"] }).notNull(),
    transactionId: uuid("transaction_id"),
    entryId: uuid("entry_id").references(() => journalEntries.id),
    holdId: uuid("hold_id").references(() => holds.id),
    caseId: uuid("case_id").references(() => complianceCases.id),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
    creditedAt: timestamp("credited_at", { withTimezone: true }),
    reversalEntryId: uuid("reversal_entry_id").references(() => journalEntries.id),
    reversedAt: timestamp("reversed_at", { withTimezone: true }),
    /** The return movement that sent it back to its sender (0050, decision 060). */
    returnedBy: uuid("returned_by"),
  },
  (t) => [
    unique("chain_deposits_log_once").on(t.chainId, t.txHash, t.txLogIndex),
    index("chain_deposits_user_idx").on(t.userId, t.seenAt),
  ],
);

/** The first block the chain watcher has not read yet, per chain (0024). */
export const chainWatchState = pgTable("chain_watch_state", {
  chainId: integer("chain_id").primaryKey(),
  nextBlock: bigint("next_block", { mode: "number" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** An approved transfer's payout on chain: queued, signed (stored before broadcast), sent, then settled (0025). */
export const payouts = pgTable(
  "payouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    transferRequestId: uuid("transfer_request_id")
      .notNull()
      .references(() => transferRequests.id),
    chainId: integer("chain_id").notNull(),
    /** The hot wallet (lowercase) that signed it; set with the nonce. */
    fromAddress: text("from_address"),
    /** As the customer entered it (the checks read its case for EIP-55). */
    toAddress: text("to_address").notNull(),
    /** net cents × 10^4, the token's 6-decimal units, as text. */
    units: numeric("units", { precision: 78, scale: 0 }).notNull(),
    status: text("status", { enum: ["queued", "held", "signed", "sent", "completed", "failed"] })
      .notNull()
      .default("queued"),
    nonce: bigint("nonce", { mode: "number" }),
    /** Why a queued payout waits (hot wallet short of USDC or gas); null when it does not. */
    waitingReason: text("waiting_reason"),
    /** A check refused it after signing: a cancel at its nonce is on its way, and the payout fails with this. */
    voidReason: text("void_reason"),
    /** The plain words the customer reads when it failed. */
    failureReason: text("failure_reason"),
    minedHash: text("mined_hash"),
    minedBlock: bigint("mined_block", { mode: "number" }),
    minedBlockHash: text("mined_block_hash"),
    /** How deep the mined transaction is, as the worker last read it, capped at CHAIN_CONFIRMATIONS (0036). */
    confirmations: integer("confirmations").notNull().default(0),
    queuedBy: uuid("queued_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    signedAt: timestamp("signed_at", { withTimezone: true }),
    lastBroadcastAt: timestamp("last_broadcast_at", { withTimezone: true }),
    settledAt: timestamp("settled_at", { withTimezone: true }),
    /** Settled outside Pillar (decision 040): the on-chain transaction staff named, if any (lowercase). */
    outsideTxHash: text("outside_tx_hash"),
    /** The approval that recorded it as settled outside Pillar; the worker never touches it again. */
    settledOutsideBy: uuid("settled_outside_by").references(() => approvals.id),
  },
  (t) => [
    unique("payouts_one_per_transfer").on(t.transferRequestId),
    unique("payouts_nonce_once").on(t.chainId, t.fromAddress, t.nonce),
  ],
);

/** Every signed transaction of a payout, stored before it is broadcast: the first, replacements, a cancel (0025). */
export const payoutAttempts = pgTable(
  "payout_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    payoutId: uuid("payout_id")
      .notNull()
      .references(() => payouts.id),
    kind: text("kind", { enum: ["transfer", "cancel"] }).notNull(),
    nonce: bigint("nonce", { mode: "number" }).notNull(),
    txHash: text("tx_hash").notNull().unique(),
    rawTx: text("raw_tx").notNull(),
    maxFeePerGas: numeric("max_fee_per_gas", { precision: 78, scale: 0 }).notNull(),
    maxPriorityFeePerGas: numeric("max_priority_fee_per_gas", { precision: 78, scale: 0 }).notNull(),
    createdAt: createdAt(),
    firstBroadcastAt: timestamp("first_broadcast_at", { withTimezone: true }),
  },
  (t) => [index("payout_attempts_payout_idx").on(t.payoutId, t.createdAt)],
);

/** The hot wallet's next nonce per chain; read and bumped under this row's lock (0025). */
export const hotWalletNonces = pgTable(
  "hot_wallet_nonces",
  {
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    nextNonce: bigint("next_nonce", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "hot_wallet_nonces_pk", columns: [t.chainId, t.address] })],
);

/** What the payout worker last saw of the hot wallet: balances, nonces, a nonce alert (0048, decision 058). */
export const hotWalletStatus = pgTable(
  "hot_wallet_status",
  {
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    usdcUnits: numeric("usdc_units", { precision: 78, scale: 0 }).notNull(),
    gasWei: numeric("gas_wei", { precision: 78, scale: 0 }).notNull(),
    baseFeeWei: numeric("base_fee_wei", { precision: 78, scale: 0 }).notNull(),
    marketMaxFeeWei: numeric("market_max_fee_wei", { precision: 78, scale: 0 }).notNull(),
    latestNonce: bigint("latest_nonce", { mode: "number" }).notNull(),
    pendingNonce: bigint("pending_nonce", { mode: "number" }).notNull(),
    /** hot_wallet_nonces.next_nonce when it was read; null before Pillar signed anything. */
    handedOutNonce: bigint("handed_out_nonce", { mode: "number" }),
    nonceAlert: text("nonce_alert", { enum: ["gap", "used_outside"] }),
    /** The nonce the alert is about: the first one missing, or the one used outside. */
    nonceAlertNonce: bigint("nonce_alert_nonce", { mode: "number" }),
    observedAt: timestamp("observed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "hot_wallet_status_pk", columns: [t.chainId, t.address] })],
);

/**
 * A transaction the hot wallet signs that is not a payout (0050, decision 060): a sweep of a CREATE2 deposit
 * address into the hot wallet, the surplus above HOT_WALLET_CEILING to cold, or a return of an uncredited deposit
 * to its sender. Signed and stored before broadcast, nonce from hot_wallet_nonces under its row lock.
 */
export const treasuryMovements = pgTable(
  "treasury_movements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    chainId: integer("chain_id").notNull(),
    kind: text("kind", { enum: ["sweep", "to_cold", "return"] }).notNull(),
    status: text("status", { enum: ["queued", "signed", "sent", "completed", "failed"] })
      .notNull()
      .default("queued"),
    /** Lowercase: the deposit address (sweep) or the hot wallet. */
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    salt: text("salt"),
    depositId: uuid("deposit_id").references(() => chainDeposits.id),
    approvalId: uuid("approval_id").references(() => approvals.id),
    /** Units planned (a sweep moves the whole balance at mining: minedUnits is what moved). */
    units: numeric("units", { precision: 78, scale: 0 }).notNull(),
    minedUnits: numeric("mined_units", { precision: 78, scale: 0 }),
    signerAddress: text("signer_address"),
    nonce: bigint("nonce", { mode: "number" }),
    waitingReason: text("waiting_reason"),
    failureReason: text("failure_reason"),
    minedHash: text("mined_hash"),
    minedBlock: bigint("mined_block", { mode: "number" }),
    minedBlockHash: text("mined_block_hash"),
    confirmations: integer("confirmations").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    signedAt: timestamp("signed_at", { withTimezone: true }),
    lastBroadcastAt: timestamp("last_broadcast_at", { withTimezone: true }),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [unique("treasury_movements_nonce_once").on(t.chainId, t.signerAddress, t.nonce)],
);

/** Every signed transaction of a treasury movement, stored before it is broadcast (0050). */
export const treasuryMovementAttempts = pgTable(
  "treasury_movement_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    movementId: uuid("movement_id")
      .notNull()
      .references(() => treasuryMovements.id),
    nonce: bigint("nonce", { mode: "number" }).notNull(),
    txHash: text("tx_hash").notNull().unique(),
    rawTx: text("raw_tx").notNull(),
    maxFeePerGas: numeric("max_fee_per_gas", { precision: 78, scale: 0 }).notNull(),
    maxPriorityFeePerGas: numeric("max_priority_fee_per_gas", { precision: 78, scale: 0 }).notNull(),
    createdAt: createdAt(),
    firstBroadcastAt: timestamp("first_broadcast_at", { withTimezone: true }),
  },
  (t) => [index("treasury_movement_attempts_movement_idx").on(t.movementId, t.createdAt)],
);
