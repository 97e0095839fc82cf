import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// "This wasn't me" links for a block on crypto sends (decision 047): one row per link, kept by its SHA-256 (unique),
// with the cooldown it restores and its expiry; a deleted customer's links go with them.
const LINK = `insert into send_block_undo_links (user_id, token_hash, previous_blocked_until, expires_at)
  values ($1, $2, $3, $4)`;

const step: MigrationStep = {
  async after(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0037@example.test', 'Uma', 'Undo', 'step0037', 'x') returning id`,
    );
    const expires = "2030-01-01T06:00:00Z";
    expect(await db.fails(LINK, [user!.id, "a".repeat(64), null, expires])).toBeNull();
    const [link] = await db.query<{ used_at: string | null; previous_blocked_until: string | null }>(
      "select used_at, previous_blocked_until from send_block_undo_links where token_hash = $1",
      ["a".repeat(64)],
    );
    expect(link).toEqual({ used_at: null, previous_blocked_until: null });
    expect((await db.fails(LINK, [user!.id, "a".repeat(64), null, expires]))?.code).toBe("23505");
    expect((await db.fails(LINK, [user!.id, "b".repeat(64), null, null]))?.code).toBe("23502");
    expect((await db.fails(LINK, [user!.id, null, null, expires]))?.code).toBe("23502");
    expect(
      (await db.fails(LINK, ["00000000-0000-4000-8000-000000000037", "c".repeat(64), null, expires]))?.code,
    ).toBe("23503");

    // A customer deleted (here one with nothing else to their name) takes their links along.
    const [gone] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0037-gone@example.test', 'Gus', 'Gone', 'step0037gone', 'x') returning id`,
    );
    await db.query(LINK, [gone!.id, "d".repeat(64), "2029-12-31T00:00:00Z", expires]);
    await db.query("delete from users where id = $1", [gone!.id]);
    const left = await db.query("select 1 from send_block_undo_links where token_hash = $1", [
      "d".repeat(64),
    ]);
    expect(left).toEqual([]);
  },
};
export default step;
