import { desc } from "drizzle-orm";
import type { MailboxEntry } from "@/contract/dev-mailbox";
import type { DbOrTx } from "@/server/db/client";
import { mailOutbox } from "@/server/db/schema";

/** The newest outbox messages first: in dev mailbox mode this is where sign-up codes are read. */
export async function listMailbox(db: DbOrTx, limit = 100): Promise<MailboxEntry[]> {
  const rows = await db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
  return rows.map((row) => ({
    id: row.id,
    to: row.toAddress,
    subject: row.subject,
    kind: row.kind,
    status: row.status,
    text: row.textBody,
    html: row.htmlBody,
    createdAt: row.createdAt.toISOString(),
  }));
}
