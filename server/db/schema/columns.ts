import { timestamp } from "drizzle-orm/pg-core";

/** The `created_at` most tables carry, set by the database. Shared by the schema files; index.ts does not re-export it. */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
