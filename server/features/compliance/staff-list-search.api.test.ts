import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SEARCH_MESSAGES } from "@/contract/compliance";
import { auditLog } from "@/server/db/schema";
import { loadSanctionsList } from "@/server/features/compliance/load-sanctions-list";
import { realListFiles } from "@/tests/support/real-ofac-list";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

/**
 * POST /api/admin/compliance/search on the real OFAC extract of 2024-05-03 (docs/banking.md "Sanctions screening").
 */
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });

const MLADIC = 7744;
let compliance: SignedInUser;
let support: SignedInUser;
let finance: SignedInUser;
let customer: SignedInUser;
beforeAll(async () => {
  compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  support = await createVerifiedUser(t.database, { staffRoles: ["support"] });
  finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
  customer = await createVerifiedUser(t.database);
});

const search = (who: SignedInUser, payload: unknown) =>
  t.app.inject({
    method: "POST",
    url: "/api/admin/compliance/search",
    headers: { cookie: who.cookie },
    payload: payload as object,
  });

describe("before any list is loaded", () => {
  it("answers 409 with what to do", async () => {
    const res = await search(compliance, { name: "Ratko Mladic" });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(SEARCH_MESSAGES.noList);
  });
});

describe("on the real list", () => {
  beforeAll(async () => {
    await loadSanctionsList(t.database.db, realListFiles(), {
      actorId: null,
      actorRole: null,
      source: "cli",
    });
  }, 120_000);

  it("answers the scored matches with their parts, and audits who searched for what", async () => {
    const res = await search(compliance, { name: "Ratko Mladic", dob: "1943-03-12", type: "person" });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ listVersion: 1, threshold: t.app.deps.config.sanctionsNameThreshold });
    expect(answer.matches[0]).toMatchObject({
      source: "SDN",
      entNum: MLADIC,
      listedName: "MLADIC, Ratko",
      primaryName: "MLADIC, Ratko",
      type: "individual",
      programs: "BALKANS",
      birthDates: ["1943-03-12"],
      parts: { listedType: "individual", weakAlias: false },
    });
    for (const m of answer.matches) expect(m.score).toBeGreaterThanOrEqual(answer.threshold);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sanctions.search"), eq(auditLog.actorId, compliance.user.id)));
    expect(audit).toMatchObject({ actorRole: "compliance", targetType: "sanctions_list" });
    expect(audit!.after).toMatchObject({ name: "Ratko Mladic", dob: "1943-03-12", type: "person" });
    expect((audit!.after as { matches: string[] }).matches).toContain(`SDN:${MLADIC}`);
  });

  it("takes a lower score within bounds, and answers nothing for an ordinary name", async () => {
    const lower = await search(compliance, { name: "Ratko Mladic", minScore: 0.8 });
    expect(lower.statusCode, lower.body).toBe(200);
    expect(lower.json().threshold).toBe(0.8);
    const none = await search(compliance, { name: "Jane Q. Ordinary-Customer", dob: null, type: null });
    expect(none.statusCode).toBe(200);
    expect(none.json().matches).toEqual([]);
  });

  it("refuses bad bodies with clear messages", async () => {
    const cases: [unknown, string][] = [
      [{}, SEARCH_MESSAGES.nameRequired],
      [{ name: "   " }, SEARCH_MESSAGES.nameRequired],
      [{ name: "A".repeat(201) }, SEARCH_MESSAGES.nameRequired],
      [{ name: "x".repeat(100_000) }, SEARCH_MESSAGES.nameRequired],
      [{ name: "Ratko\u0000Mladic" }, "Text must not contain NUL or invalid characters"],
      [{ name: "Ratko Mladic", dob: "1943-02-30" }, SEARCH_MESSAGES.dob],
      [{ name: "Ratko Mladic", dob: "12/03/1943" }, SEARCH_MESSAGES.dob],
      [{ name: "Ratko Mladic", type: "vessel" }, SEARCH_MESSAGES.type],
      [{ name: "Ratko Mladic", minScore: 0.5 }, SEARCH_MESSAGES.minScore],
      [{ name: "Ratko Mladic", minScore: "high" }, SEARCH_MESSAGES.minScore],
    ];
    for (const [body, message] of cases) {
      const res = await search(compliance, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().message).toContain(message);
    }
  });

  it("is compliance's alone: customers and other staff get 403", async () => {
    for (const who of [customer, support, finance]) {
      const res = await search(who, { name: "Ratko Mladic" });
      expect(res.statusCode).toBe(403);
    }
    const signedOut = await t.app.inject({
      method: "POST",
      url: "/api/admin/compliance/search",
      payload: { name: "Ratko Mladic" },
    });
    expect(signedOut.statusCode).toBe(401);
  });
});
