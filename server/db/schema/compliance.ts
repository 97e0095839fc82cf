import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { HitScoreParts } from "@/contract/compliance";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";
import { uploads } from "@/server/db/schema/objects";
import { transferRequests } from "@/server/db/schema/transfers";

/** One load of OFAC's files: a whole snapshot, versioned; exactly one is active (decision 025). */
export const sanctionsLists = pgTable(
  "sanctions_lists",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    version: integer("version").notNull(),
    source: text("source", { enum: ["cli", "upload"] }).notNull(),
    /** Each file's name, SHA-256, size and record count. */
    files: jsonb("files")
      .notNull()
      .$type<{ name: string; sha256: string; bytes: number; records: number }[]>(),
    entryCount: integer("entry_count").notNull(),
    nameCount: integer("name_count").notNull(),
    addressCount: integer("address_count").notNull(),
    loadedBy: uuid("loaded_by"),
    isActive: boolean("is_active").notNull().default(false),
    loadedAt: timestamp("loaded_at", { withTimezone: true }).notNull().defaultNow(),
    rescreenedAt: timestamp("rescreened_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("sanctions_lists_version_key").on(t.version),
    uniqueIndex("sanctions_lists_one_active_key").on(t.isActive).where(sql`${t.isActive}`),
    check("sanctions_lists_source_check", sql`${t.source} in ('cli', 'upload')`),
  ],
);

export const sanctionsEntries = pgTable(
  "sanctions_entries",
  {
    listId: uuid("list_id")
      .notNull()
      .references(() => sanctionsLists.id, { onDelete: "cascade" }),
    /** `SDN` or `CONS` (the consolidated non-SDN files): ent_num is unique within one source. */
    source: text("source").notNull(),
    entNum: integer("ent_num").notNull(),
    name: text("name").notNull(),
    sdnType: text("sdn_type").notNull(),
    programs: text("programs").notNull(),
    /** Dates of birth from the remarks: `YYYY-MM-DD`, or `YYYY` when the list gives a year only. */
    birthDates: jsonb("birth_dates").notNull().$type<string[]>(),
  },
  (t) => [primaryKey({ name: "sanctions_entries_pk", columns: [t.listId, t.source, t.entNum] })],
);

export const sanctionsNames = pgTable(
  "sanctions_names",
  {
    listId: uuid("list_id")
      .notNull()
      .references(() => sanctionsLists.id, { onDelete: "cascade" }),
    source: text("source").notNull(),
    entNum: integer("ent_num").notNull(),
    /** `primary`, or ALT.CSV's alt_type: `aka`, `fka`, `nka`. */
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    normalised: text("normalised").notNull(),
  },
  (t) => [index("sanctions_names_list_idx").on(t.listId)],
);

export const sanctionsAddresses = pgTable(
  "sanctions_addresses",
  {
    listId: uuid("list_id")
      .notNull()
      .references(() => sanctionsLists.id, { onDelete: "cascade" }),
    source: text("source").notNull(),
    entNum: integer("ent_num").notNull(),
    /** The code after "Digital Currency Address - ": ETH, USDC, USDT, XBT, TRX… */
    currency: text("currency").notNull(),
    address: text("address").notNull(),
    /** Lower case: addresses match exactly, case-insensitively. */
    addressKey: text("address_key").notNull(),
  },
  (t) => [index("sanctions_addresses_key_idx").on(t.listId, t.addressKey)],
);

/** One open case per customer at a time: every hit while it is open joins it. */
export const complianceCases = pgTable(
  "compliance_cases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** `confirmed`: decided before decision 032 (a true match, money held); new cases end in the other four. */
    status: text("status", { enum: ["open", "cleared", "confirmed", "restricted", "frozen", "filed"] })
      .notNull()
      .default("open"),
    decisionNote: text("decision_note"),
    /** The compliance member working the case. */
    assignedTo: uuid("assigned_to").references(() => users.id, { onDelete: "set null" }),
    /** The SAR draft's narrative, written by compliance. */
    narrative: text("narrative").notNull().default(""),
    decidedBy: uuid("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("compliance_cases_one_open_key").on(t.userId).where(sql`${t.status} = 'open'`),
    index("compliance_cases_queue_idx").on(t.status, t.openedAt, t.id),
    index("compliance_cases_user_status_idx").on(t.userId, t.status),
    check(
      "compliance_cases_status_check",
      sql`${t.status} in ('open', 'cleared', 'confirmed', 'restricted', 'frozen', 'filed')`,
    ),
    check("compliance_cases_decided_consistent", sql`(${t.status} = 'open') = (${t.decidedAt} is null)`),
  ],
);

/** One re-screen of every customer against one list version, run in batches by the jobs room (0043, decision 053). */
export const rescreenRuns = pgTable(
  "rescreen_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    listId: uuid("list_id")
      .notNull()
      .references(() => sanctionsLists.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["queued", "running", "done", "superseded"] })
      .notNull()
      .default("queued"),
    /** The last customer (by id) whose batch committed: a restart goes on after it. */
    cursor: uuid("cursor"),
    /** Customers to screen, counted when the run starts. */
    total: integer("total"),
    customers: integer("customers").notNull().default(0),
    addresses: integer("addresses").notNull().default(0),
    newHits: integer("new_hits").notNull().default(0),
    queuedAt: timestamp("queued_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("rescreen_runs_list_key").on(t.listId),
    index("rescreen_runs_unfinished_idx").on(t.queuedAt).where(sql`${t.status} in ('queued', 'running')`),
    check("rescreen_runs_status_check", sql`${t.status} in ('queued', 'running', 'done', 'superseded')`),
  ],
);

/** A screening hit: what was screened, where, against which list entry, with the score. */
export const complianceHits = pgTable(
  "compliance_hits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    userId: uuid("user_id"),
    /** The same customer, subject, list entry and transfer never make a second hit (re-screens are idempotent). */
    dedupeKey: text("dedupe_key").notNull(),
    screeningPoint: text("screening_point").notNull(),
    subjectType: text("subject_type", { enum: ["name", "address"] }).notNull(),
    subject: text("subject").notNull(),
    matched: text("matched").notNull(),
    score: doublePrecision("score").notNull(),
    listVersion: integer("list_version").notNull(),
    listSource: text("list_source").notNull(),
    entNum: integer("ent_num").notNull(),
    programs: text("programs").notNull(),
    transferId: uuid("transfer_id"),
    /** The USDC deposit whose sender was listed (0033). */
    depositId: uuid("deposit_id"),
    /** Why the name scored what it did, as the matcher answered it (0043); null for addresses and older hits. */
    scoreParts: jsonb("score_parts").$type<HitScoreParts>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("compliance_hits_dedupe_key").on(t.dedupeKey),
    index("compliance_hits_case_idx").on(t.caseId, t.createdAt),
    index("compliance_hits_transfer_idx").on(t.transferId),
    check("compliance_hits_subject_type_check", sql`${t.subjectType} in ('name', 'address')`),
  ],
);

/** A compliance member's note on a case: never shown to the customer. */
export const complianceCaseComments = pgTable(
  "compliance_case_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("compliance_case_comments_case_idx").on(t.caseId, t.createdAt)],
);

/** A file compliance uploaded (the same uploads, limits and type checks as KYC documents) attached to a case. */
export const complianceCaseDocuments = pgTable(
  "compliance_case_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    uploadId: uuid("upload_id")
      .notNull()
      .references(() => uploads.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    addedBy: uuid("added_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("compliance_case_documents_upload_key").on(t.caseId, t.uploadId),
    index("compliance_case_documents_upload_idx").on(t.uploadId),
  ],
);

/** Another customer compliance linked to a case (shared address, device, counterparty). */
export const complianceCaseLinks = pgTable(
  "compliance_case_links",
  {
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    note: text("note").notNull(),
    addedBy: uuid("added_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "compliance_case_links_pk", columns: [t.caseId, t.userId] })],
);

/** A decision on a case: proposed by one compliance member (maker), taking effect when another approves. */
export const complianceCaseDecisions = pgTable(
  "compliance_case_decisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    decision: text("decision", {
      enum: ["clear", "restrict", "freeze", "file", "lift", "reject_transfer", "block_transfer"],
    }).notNull(),
    note: text("note").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    makerId: uuid("maker_id").references(() => users.id, { onDelete: "set null" }),
    checkerId: uuid("checker_id").references(() => users.id, { onDelete: "set null" }),
    checkerNote: text("checker_note"),
    createdAt: createdAt(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** The held transfer a reject_transfer or block_transfer decides (decision 048). */
    transferId: uuid("transfer_id").references(() => transferRequests.id, { onDelete: "set null" }),
    /** An approved reject or block is reported to OFAC by this New York day (10 business days). */
    reportDueOn: date("report_due_on", { mode: "string" }),
  },
  (t) => [
    uniqueIndex("compliance_case_decisions_one_pending_key").on(t.caseId).where(sql`${t.status} = 'pending'`),
    index("compliance_case_decisions_case_idx").on(t.caseId, t.createdAt),
    check(
      "compliance_case_decisions_decision_check",
      sql`${t.decision} in ('clear', 'restrict', 'freeze', 'file', 'lift', 'reject_transfer', 'block_transfer')`,
    ),
    check(
      "compliance_case_decisions_transfer_only_for_transfers",
      sql`${t.transferId} is null or ${t.decision} in ('reject_transfer', 'block_transfer')`,
    ),
    check("compliance_case_decisions_status_check", sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check(
      "compliance_case_decisions_decided_consistent",
      sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`,
    ),
    check(
      "compliance_case_decisions_two_people",
      sql`${t.checkerId} is null or ${t.checkerId} <> ${t.makerId}`,
    ),
  ],
);

/** The SAR draft's FinCEN fields compliance records on a case (0044, decision 055). */
export const complianceSarDetails = pgTable(
  "compliance_sar_details",
  {
    caseId: uuid("case_id")
      .primaryKey()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    filingType: text("filing_type", { enum: ["initial", "continuing", "correction"] })
      .notNull()
      .default("initial"),
    /** The BSA ID of the report this one continues or corrects (14 digits; zeros when unknown). */
    priorReportId: text("prior_report_id"),
    priorFiledOn: date("prior_filed_on", { mode: "string" }),
    /** False: no suspect identified, so the report is due 60 days after first detection instead of 30. */
    subjectIdentified: boolean("subject_identified").notNull().default(true),
    categories: text("categories").array().notNull().default(sql`'{}'::text[]`),
    otherCategory: text("other_category"),
    idType: text("id_type", { enum: ["drivers_license", "passport", "alien_registration", "other"] }),
    idOtherType: text("id_other_type"),
    /** The ID document's number, sealed under DATA_KEY as the SSN is; the screen shows the last four only. */
    idNumberCiphertext: text("id_number_ciphertext"),
    idNumberLast4: text("id_number_last4"),
    idIssuerState: text("id_issuer_state"),
    idIssuerCountry: text("id_issuer_country"),
    occupation: text("occupation"),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "compliance_sar_details_filing_type_check",
      sql`${t.filingType} in ('initial', 'continuing', 'correction')`,
    ),
    check(
      "compliance_sar_details_prior_check",
      sql`(${t.filingType} = 'initial') = (${t.priorReportId} is null)`,
    ),
    check(
      "compliance_sar_details_id_type_check",
      sql`${t.idType} is null or ${t.idType} in ('drivers_license', 'passport', 'alien_registration', 'other')`,
    ),
    check(
      "compliance_sar_details_id_number_check",
      sql`(${t.idNumberCiphertext} is null) = (${t.idNumberLast4} is null)`,
    ),
  ],
);

/**
 * A blocked or rejected transaction OFAC must be told of within 10 business days (31 CFR 501.603-604; 0044,
 * decision 055): written when the block or reject is approved, with what the report needs kept as it was then.
 */
export const ofacReports = pgTable(
  "ofac_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["blocked", "rejected"] }).notNull(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    decisionId: uuid("decision_id")
      .notNull()
      .references(() => complianceCaseDecisions.id, { onDelete: "cascade" }),
    transferId: uuid("transfer_id").references(() => transferRequests.id, { onDelete: "set null" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    amount: bigint("amount", { mode: "number" }).notNull(),
    ownerName: text("owner_name").notNull(),
    ownerAddress: text("owner_address"),
    counterpartyName: text("counterparty_name").notNull(),
    counterpartyAddress: text("counterparty_address"),
    programs: text("programs").notNull(),
    listEntries: text("list_entries").notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }).notNull(),
    /** The New York day the block or reject applied, from which the 10 business days run. */
    decidedOn: date("decided_on", { mode: "string" }).notNull(),
    dueOn: date("due_on", { mode: "string" }).notNull(),
    filedOn: date("filed_on", { mode: "string" }),
    filedReference: text("filed_reference"),
    filedBy: uuid("filed_by").references(() => users.id, { onDelete: "set null" }),
    filedAt: timestamp("filed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("ofac_reports_decision_key").on(t.decisionId),
    index("ofac_reports_due_idx").on(t.dueOn, t.id),
    index("ofac_reports_blocked_idx").on(t.decidedOn).where(sql`${t.kind} = 'blocked'`),
    check("ofac_reports_kind_check", sql`${t.kind} in ('blocked', 'rejected')`),
    check("ofac_reports_amount_check", sql`${t.amount} > 0`),
    check(
      "ofac_reports_filed_consistent",
      sql`(${t.filedAt} is null) = (${t.filedReference} is null) and (${t.filedAt} is null) = (${t.filedOn} is null)`,
    ),
  ],
);
