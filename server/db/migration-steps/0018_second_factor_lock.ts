import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// second_factor_guards counts an account's consecutive wrong second-factor proofs in the database (decision 018):
// one row per user, failures never below zero, locked_at set at the limit, and the row goes with its user.
const refused = (code: string, name: string) => ({ code, message: expect.stringContaining(name) });

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified)
       values ('ada.0018@example.com', 'Ada', 'Guard', 'ada0018', 'x', true) returning id`,
    );
    db.shared.set("0018.user", user!.id);
  },
  async after(db) {
    const userId = db.shared.get("0018.user")!;
    await db.query("insert into second_factor_guards (user_id) values ($1)", [userId]);
    expect(
      await db.query("select failures, locked_at from second_factor_guards where user_id = $1", [userId]),
    ).toEqual([{ failures: 0, locked_at: null }]);
    // At the limit: counted and locked.
    await db.query("update second_factor_guards set failures = 5, locked_at = now() where user_id = $1", [
      userId,
    ]);
    expect(
      await db.fails("update second_factor_guards set failures = -1 where user_id = $1", [userId]),
    ).toEqual(refused("23514", "second_factor_guards_failures_non_negative"));
    expect(await db.fails("insert into second_factor_guards (user_id) values ($1)", [userId])).toEqual(
      refused("23505", "second_factor_guards_pkey"),
    );
    expect(await db.fails("insert into second_factor_guards (user_id) values (gen_random_uuid())")).toEqual(
      refused("23503", "second_factor_guards_user_id_users_id_fk"),
    );
    // A deleted account takes its guard with it.
    const [gone] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('gone.0018@example.com', 'Gone', 'Guard', 'gone0018', 'x') returning id`,
    );
    await db.query("insert into second_factor_guards (user_id, failures) values ($1, 2)", [gone!.id]);
    await db.query("delete from users where id = $1", [gone!.id]);
    expect(await db.query("select 1 from second_factor_guards where user_id = $1", [gone!.id])).toEqual([]);
  },
};
export default step;
