import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// "Request money" from a $tag (decision 037): a request between two customers, open until paid (by exactly one tag
// payment, never reused), declined or cancelled, dated when answered; and the notification centre's new kind,
// 'money_request', beside the notifications and preferences already written.
const refused = (code: string, name: string) => ({ code, message: expect.stringContaining(name) });
const notify =
  "insert into notifications (user_id, kind, title, body) values ($1, $2, 'Request', '') returning id";
const prefer =
  "insert into notification_preferences (user_id, kind, in_app, email) values ($1, $2, true, false)";

const step: MigrationStep = {
  async before(db) {
    const [payer] = db.shared.get("0029.people")!.split(",");
    // The kind did not exist: the centre refused it.
    expect((await db.fails(notify, [payer, "money_request"]))?.code).toBe("23514");
    const [kept] = await db.query<{ id: string }>(notify, [payer, "money_in"]);
    await db.query(prefer, [payer, "money_in"]);
    db.shared.set("0031.notification", kept!.id);
  },
  async after(db) {
    const [payer, requester] = db.shared.get("0029.people")!.split(",");
    const [payment] = db.shared.get("0029.payment")!.split(",");
    expect(
      await db.query("select kind from notifications where id = $1", [db.shared.get("0031.notification")]),
    ).toEqual([{ kind: "money_in" }]);
    expect(await db.fails(notify, [payer, "money_request"])).toBeNull();
    expect(await db.fails(prefer, [payer, "money_request"])).toBeNull();
    expect(await db.fails(notify, [payer, "money_requests"])).toEqual(refused("23514", "notifications_kind"));
    expect(await db.fails(prefer, [payer, "money_requests"])).toEqual(
      refused("23514", "notification_preferences_kind"),
    );

    // quinn0029 asks pia0029 for the $15.00 that 0029's tag payment paid.
    const ask = `insert into money_requests (id, requester_id, payer_id, requester_tag, payer_tag, amount, note, status,
      tag_payment_id, decided_at) values ($1, $2, $3, 'quinn0029', 'pia0029', $4, $5, $6, $7, $8)`;
    const open = randomUUID();
    await db.query(ask, [open, requester, payer, 1500, "Dinner", "open", null, null]);
    expect(await db.query("select status, decided_at from money_requests where id = $1", [open])).toEqual([
      { status: "open", decided_at: null },
    ]);
    await db.query(
      "update money_requests set status = 'paid', tag_payment_id = $2, decided_at = now() where id = $1",
      [open, payment],
    );
    expect(
      await db.fails(ask, [randomUUID(), requester, payer, 1500, null, "paid", payment, new Date()]),
    ).toEqual(refused("23505", "money_requests_tag_payment_id"));
    expect(
      await db.fails(ask, [randomUUID(), requester, payer, 1500, null, "paid", null, new Date()]),
    ).toEqual(refused("23514", "money_requests_paid_has_payment"));
    expect(await db.fails(ask, [randomUUID(), requester, payer, 1500, null, "declined", null, null])).toEqual(
      refused("23514", "money_requests_decided_dated"),
    );
    expect(
      await db.fails(ask, [randomUUID(), requester, payer, 1500, null, "expired", null, new Date()]),
    ).toEqual(refused("23514", "money_requests_status_known"));
    expect(await db.fails(ask, [randomUUID(), requester, requester, 1500, null, "open", null, null])).toEqual(
      refused("23514", "money_requests_two_parties"),
    );
    expect(await db.fails(ask, [randomUUID(), requester, payer, 0, null, "open", null, null])).toEqual(
      refused("23514", "money_requests_amount_positive"),
    );
    expect(await db.fails(ask, [randomUUID(), requester, payer, 1500, "", "open", null, null])).toEqual(
      refused("23514", "money_requests_note_length"),
    );
    expect(
      await db.fails(ask, [randomUUID(), requester, payer, 1500, null, "cancelled", null, new Date()]),
    ).toBeNull();
  },
};
export default step;
