import { and, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/server/db/client";
import { authChallenges } from "@/server/db/schema";

export type ChallengeRow = typeof authChallenges.$inferSelect;

/** A challenge that can still be spent: not consumed, not expired, and matching every given condition. */
export async function findOpenChallenge(db: DbOrTx, ...conditions: SQL[]): Promise<ChallengeRow | undefined> {
  const [row] = await db
    .select()
    .from(authChallenges)
    .where(and(...conditions, isNull(authChallenges.consumedAt), gt(authChallenges.expiresAt, sql`now()`)));
  return row;
}

/** Spends a challenge once: of two requests racing with the same one, exactly one gets true. */
export async function consumeChallenge(tx: DbOrTx, id: string): Promise<boolean> {
  const rows = await tx
    .update(authChallenges)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(authChallenges.id, id),
        isNull(authChallenges.consumedAt),
        gt(authChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: authChallenges.id });
  return rows.length === 1;
}
