/**
 * Every drizzle table, one file per owning area; `@/server/db/schema` resolves here and re-exports them all.
 * A table is declared with the server area that writes it (server/features/<area>, directly or through that
 * area's SQL function in server/db/functions); one the ground floor (server/lib, the shared SQL functions) or
 * many areas write lives in a shared file at the bottom: identity.ts (users, sessions, e-mail codes), ledger.ts
 * (the double-entry books and the customers' transactions) or platform.ts (mail outbox, audit log, idempotency).
 * A file imports the tables its foreign keys name from the files below it, never in a cycle; columns.ts holds
 * the shared column helper and is not re-exported.
 */

export * from "./admin";
export * from "./approvals";
export * from "./auth";
export * from "./chat";
export * from "./compliance";
export * from "./content";
export * from "./credits";
export * from "./identity";
export * from "./kyc";
export * from "./ledger";
export * from "./monitoring";
export * from "./objects";
export * from "./platform";
export * from "./recipients";
export * from "./savings";
export * from "./schedules";
export * from "./security";
export * from "./settlement";
export * from "./statements";
export * from "./tag-payments";
export * from "./transfers";
