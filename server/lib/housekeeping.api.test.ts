import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/server/db/client";
import { sweepExpired } from "@/server/lib/housekeeping";
import { createTestDatabase } from "@/tests/support/test-database";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

let database: Database;
let customer: SignedInUser;

beforeAll(async () => {
  database = await createTestDatabase();
  customer = await createVerifiedUser(database);
});
afterAll(() => database.close());

const ids = async (text: string) => (await database.query<{ id: string }>(text)).map((r) => r.id).sort();

describe("housekeeping sweep", () => {
  it("deletes only what can never be used again, and a second sweep finds nothing", async () => {
    const userId = customer.user.id;
    await database.query(
      `insert into sessions (id_hash, user_id, expires_at, last_seen_at) values
         ('expired', $1, now() - interval '1 minute', now() - interval '1 minute'),
         ('idle', $1, now() + interval '1 hour', now() - interval '31 minutes'),
         ('fresh', $1, now() + interval '1 hour', now() - interval '29 minutes')`,
      [userId],
    );
    await database.query(
      `insert into one_time_codes (user_id, purpose, code_hash, expires_at) values
         ($1, 'verify_email', 'old', now() - interval '25 hours'),
         ($1, 'verify_email', 'recent', now() - interval '1 hour'),
         ($1, 'reset_password', 'live', now() + interval '10 minutes')`,
      [userId],
    );
    await database.query(
      `insert into idempotency_keys (user_id, key, request_hash, status_code, response, created_at) values
         ($1, 'old', 'h', 201, '{}', now() - interval '8 days'),
         ($1, 'recent', 'h', 201, '{}', now() - interval '6 days')`,
      [userId],
    );
    await database.query(
      `insert into mail_outbox (to_address, subject, text_body, html_body, kind, status, sent_at, created_at) values
         ('a@example.com', 'old sent', 't', 'h', 'test', 'sent', now() - interval '8 days', now() - interval '8 days'),
         ('a@example.com', 'recent sent', 't', 'h', 'test', 'sent', now() - interval '1 day', now() - interval '1 day'),
         ('a@example.com', 'old pending', 't', 'h', 'test', 'pending', null, now() - interval '8 days')`,
    );

    expect(await sweepExpired(database.db)).toEqual({
      sessions: 2,
      oneTimeCodes: 1,
      idempotencyKeys: 1,
      sentMail: 1,
    });

    const sessionIds = await ids(
      "select id_hash as id from sessions where id_hash in ('expired', 'idle', 'fresh')",
    );
    expect(sessionIds).toEqual(["fresh"]);
    expect(await ids("select code_hash as id from one_time_codes")).toEqual(["live", "recent"]);
    expect(await ids("select key as id from idempotency_keys")).toEqual(["recent"]);
    expect(await ids("select subject as id from mail_outbox")).toEqual(["old pending", "recent sent"]);
    // The fixture's own live session survives.
    expect(await ids("select user_id as id from sessions where id_hash not in ('fresh')")).toEqual([userId]);

    expect(await sweepExpired(database.db)).toEqual({
      sessions: 0,
      oneTimeCodes: 0,
      idempotencyKeys: 0,
      sentMail: 0,
    });
  });
});
