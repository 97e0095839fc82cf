import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Database, queryRows } from "@/server/db/client";
import type { MailMessage } from "@/server/lib/mail/templates";
import { notifyAll } from "@/server/lib/notifications";
import { statementsDuring } from "@/tests/support/round-trips";
import { createTestDatabase } from "@/tests/support/test-database";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// A consumer's batch of notifications (decision 051): a few statements whatever its size, each customer's
// choices kept, and one "notifications" notice per customer rather than one per row.
let database: Database;
let ann: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  database = await createTestDatabase();
  ann = await createVerifiedUser(database);
  bob = await createVerifiedUser(database);
});
afterAll(async () => {
  await database.close();
});

const mail = (to: string, subject: string): MailMessage => ({
  to,
  kind: "money_in",
  subject,
  text: subject,
  html: subject,
});

describe("notifyAll", () => {
  it("writes the rows and mail each customer chose, with one notice per customer", async () => {
    // Bob takes no money_in in the centre and no transfer_status e-mail.
    await database.query(
      `insert into notification_preferences (user_id, kind, in_app, email) values ($1, 'money_in', false, true),
         ($1, 'transfer_status', true, false)`,
      [bob.user.id],
    );
    const noticesBefore = await queryRows(
      database.db,
      sql`select user_id::text, count(*)::int as n from user_events group by user_id`,
      z.object({ user_id: z.string(), n: z.number() }),
    );
    const noticesAt = (id: string) => noticesBefore.find((r) => r.user_id === id)?.n ?? 0;
    const statements = await statementsDuring(database, () =>
      database.db.transaction(async (tx) => {
        await notifyAll(tx, [
          ...Array.from({ length: 5 }, (_, i) => ({
            userId: ann.user.id,
            kind: "money_in" as const,
            content: { title: `Ann in ${i}`, body: "" },
            mail: mail(ann.email, `Ann mail ${i}`),
          })),
          {
            userId: bob.user.id,
            kind: "money_in",
            content: { title: "Bob in", body: "" },
            mail: mail(bob.email, "Bob in"),
          },
          {
            userId: bob.user.id,
            kind: "transfer_status",
            content: { title: "Bob out", body: "" },
            mail: mail(bob.email, "Bob out"),
          },
        ]);
      }),
    );
    // The choices, the rows, the notices and the mail: four statements for seven notifications (on PostgreSQL,
    // plus BEGIN and COMMIT); one by one it was two or three each, and a trigger's five per row inside them.
    if (database.kind === "pg") expect(statements).toHaveLength(6);
    const titles = await queryRows(
      database.db,
      sql`select title from notifications where user_id in (${ann.user.id}, ${bob.user.id}) order by title`,
      z.object({ title: z.string() }),
    );
    expect(titles.map((t) => t.title)).toEqual([
      "Ann in 0",
      "Ann in 1",
      "Ann in 2",
      "Ann in 3",
      "Ann in 4",
      "Bob out",
    ]);
    const subjects = await queryRows(
      database.db,
      sql`select subject from mail_outbox where to_address in (${ann.email}, ${bob.email}) order by subject`,
      z.object({ subject: z.string() }),
    );
    expect(subjects.map((s) => s.subject)).toEqual([
      "Ann mail 0",
      "Ann mail 1",
      "Ann mail 2",
      "Ann mail 3",
      "Ann mail 4",
      "Bob in",
    ]);
    const notices = await queryRows(
      database.db,
      sql`select user_id::text, topics from user_events where user_id in (${ann.user.id}, ${bob.user.id})
          order by id`,
      z.object({ user_id: z.string(), topics: z.array(z.string()) }),
    );
    const of = (id: string) => notices.filter((n) => n.user_id === id);
    expect(of(ann.user.id).length - noticesAt(ann.user.id)).toBe(1);
    expect(of(bob.user.id).length - noticesAt(bob.user.id)).toBe(1);
    expect(of(ann.user.id).at(-1)?.topics).toEqual(["notifications"]);
    // The trigger is quiet only for the batch's insert: a notification written alone still raises its notice.
    await database.query(
      "insert into notifications (user_id, kind, title, body) values ($1, 'money_in', 'alone', '')",
      [ann.user.id],
    );
    const [after] = await queryRows(
      database.db,
      sql`select count(*)::int as n from user_events where user_id = ${ann.user.id}`,
      z.object({ n: z.number() }),
    );
    expect(after?.n).toBe(of(ann.user.id).length + 1);
  });
});
