import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "@/server/db/client";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser } from "@/tests/support/users";

// Pushed updates after commit (decision 051): a money function writes its event instead of notices, and the
// jobs room's pushes consumer turns the event's notices into each user's one notice.
const t = setUpTestApp({}, { jobs: { consumerEveryMs: 60_000 } });

const notices = (userId: string) =>
  queryRows(
    t.database.db,
    sql`select id::text as id, topics from user_events where user_id = ${userId}::uuid order by id`,
    z.object({ id: z.string(), topics: z.array(z.string()) }),
  );

describe("the pushes consumer", () => {
  it("adds no notice in a transaction whose function writes its own event, then one per user after the commit", async () => {
    const { user: payer } = await createVerifiedUser(t.database);
    const { user: payee } = await createVerifiedUser(t.database);
    const before = await notices(payer.id);
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pushes_by_caller()`);
      // A trigger-watched write of the payer's (user_events_users) adds nothing now.
      await tx.execute(sql`update users set frozen_at = now() where id = ${payer.id}::uuid`);
      await tx.execute(sql`update users set frozen_at = null where id = ${payer.id}::uuid`);
      await tx.execute(
        sql`select emit_event('test.moved', ${payer.id}::uuid, ${JSON.stringify({
          notices: [
            { user_id: payer.id, topics: ["transfers", "summary"] },
            { user_id: payee.id, topics: ["summary"] },
          ],
        })}::jsonb)`,
      );
      await tx.execute(
        sql`select emit_event('test.moved', ${payer.id}::uuid, ${JSON.stringify({
          notices: [{ user_id: payer.id, topics: ["transactions"] }],
        })}::jsonb)`,
      );
    });
    expect(await notices(payer.id)).toEqual(before);
    await t.app.jobs.drainConsumers();
    const after = await notices(payer.id);
    expect(after.slice(before.length).map((n) => n.topics)).toEqual([
      ["summary", "transactions", "transfers"],
    ]);
    expect((await notices(payee.id)).at(-1)?.topics).toEqual(["summary"]);
    // The flag was the transaction's: the next write outside it adds its notice as before.
    await t.database.db.execute(sql`update users set frozen_at = now() where id = ${payer.id}::uuid`);
    expect((await notices(payer.id)).length).toBe(after.length + 1);
  });
});
