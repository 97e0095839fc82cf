import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Pushed updates and the notification centre (decision 034): a per-user counter and log of "this changed"
// notices stamped with the writing transaction, the centre's notifications (known kinds, bounded title and body,
// a link only to a path inside the app, ids the database hands out) and per-kind preferences, where security
// notices always go by e-mail.
const refused = (code: string, name: string) => ({ code, message: expect.stringContaining(name) });

const step: MigrationStep = {
  async after(db) {
    const userId = db.shared.get("0018.user")!; // the customer 0018's step left
    await db.query("insert into user_event_counters (user_id) values ($1)", [userId]);
    expect(
      await db.query("select last_id::int from user_event_counters where user_id = $1", [userId]),
    ).toEqual([{ last_id: 0 }]);
    const event = "insert into user_events (user_id, id, topics) values ($1, 1, '{transactions,balance}')";
    await db.query(event, [userId]);
    expect(
      await db.query(
        "select topics, xact = pg_current_xact_id() as this_xact from user_events where user_id = $1",
        [userId],
      ),
    ).toEqual([{ topics: ["transactions", "balance"], this_xact: true }]);
    expect((await db.fails(event, [userId]))?.code).toBe("23505");

    const notify = "insert into notifications (user_id, kind, title, body, link) values ($1, $2, $3, $4, $5)";
    await db.query(notify, [
      userId,
      "money_in",
      "Money in",
      "You received $12.34 from $omar0021",
      "/activity?tab=in",
    ]);
    expect(await db.fails(notify, [userId, "marketing", "Hello", "", null])).toEqual(
      refused("23514", "notifications_kind"),
    );
    expect(await db.fails(notify, [userId, "security", "", "", null])).toEqual(
      refused("23514", "notifications_title_length"),
    );
    expect(await db.fails(notify, [userId, "security", "New sign-in", "x".repeat(1001), null])).toEqual(
      refused("23514", "notifications_body_length"),
    );
    expect(await db.fails(notify, [userId, "security", "New sign-in", "", "https://example.com/"])).toEqual(
      refused("23514", "notifications_link_path"),
    );
    expect(
      (
        await db.fails(
          "insert into notifications (id, user_id, kind, title, body) values (1, $1, 'security', 'T', '')",
          [userId],
        )
      )?.code,
    ).toBe("428C9"); // GENERATED ALWAYS: only the database numbers them

    const prefer =
      "insert into notification_preferences (user_id, kind, in_app, email) values ($1, $2, $3, $4)";
    await db.query(prefer, [userId, "money_in", true, false]);
    await db.query(prefer, [userId, "security", true, true]);
    expect(await db.fails(prefer, [userId, "money_in", false, false])).toEqual(
      refused("23505", "notification_preferences_pkey"),
    );
    expect(await db.fails(prefer, [userId, "chat_reply", true, true])).toBeNull();
    expect(
      await db.fails(
        "update notification_preferences set email = false where user_id = $1 and kind = 'security'",
        [userId],
      ),
    ).toEqual(refused("23514", "notification_preferences_security_email"));
    expect(await db.fails(prefer, [userId, "newsletter", true, true])).toEqual(
      refused("23514", "notification_preferences_kind"),
    );
  },
};
export default step;
