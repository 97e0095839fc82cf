import { describe, expect, it } from "vitest";
import { SECURITY_MESSAGES } from "@/contract/security";
import { issueFreezeLink } from "@/server/features/security/freeze-links";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser } from "@/tests/support/users";

// A used "This wasn't me" link (docs/architecture.md "Account security") showed the freeze button again; the
// page now asks first.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });

const post = (url: string, token: string) => t.app.inject({ method: "POST", url, payload: { token } });
const check = (token: string) => post("/api/account/freeze/check", token);
const tokenOf = (url: string) => /#token=([A-Za-z0-9_-]{43})$/.exec(url)![1]!;

async function linkFor(userId: string) {
  return tokenOf(
    await issueFreezeLink(t.database.db, { config: t.app.deps.config }, { userId, reason: "new_device" }),
  );
}

describe("POST /api/account/freeze/check", () => {
  it("says a fresh link would freeze, spending nothing; once used it says the account is already frozen", async () => {
    const { user } = await createVerifiedUser(t.database);
    const token = await linkFor(user.id);
    const fresh = await check(token);
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json()).toEqual({ alreadyFrozen: false });
    // Checking twice changes nothing: the link still freezes.
    expect((await check(token)).json()).toEqual({ alreadyFrozen: false });
    const [before] = await t.database.query<{ frozen: boolean }>(
      "select frozen_at is not null as frozen from users where id = $1",
      [user.id],
    );
    expect(before).toEqual({ frozen: false });

    const frozen = await post("/api/account/freeze", token);
    expect(frozen.json()).toMatchObject({ alreadyFrozen: false });
    expect((await check(token)).json()).toEqual({ alreadyFrozen: true });
    // Any other link of the same account says so too.
    expect((await check(await linkFor(user.id))).json()).toEqual({ alreadyFrozen: true });
  });

  it("refuses a link that cannot freeze exactly as the freeze does", async () => {
    const unknown = await check("x".repeat(43));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ freezeLinkInvalid: true, message: SECURITY_MESSAGES.linkInvalid });
    expect((await check("short")).statusCode).toBe(400);

    const { user } = await createVerifiedUser(t.database);
    const expired = await linkFor(user.id);
    await t.database.query(
      "update freeze_links set expires_at = now() - interval '1 minute' where user_id = $1",
      [user.id],
    );
    const answer = await check(expired);
    expect(answer.statusCode).toBe(410);
    expect(answer.json()).toMatchObject({ freezeLinkExpired: true });
  });
});
