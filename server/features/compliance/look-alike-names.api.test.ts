import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { NAME_MESSAGES } from "@/contract/person-name";
import { complianceHits, kycApplications, savedRecipients, users } from "@/server/db/schema";
import { loadSanctionsList } from "@/server/features/compliance/load-sanctions-list";
import { runRescreenToEnd } from "@/server/features/compliance/rescreen";
import { applyWithLicence, PERSONAL_KYC_FIELDS, ssnSequence } from "@/tests/support/kyc";
import { createApprovedCustomer, expectLedgerCleanAfterEach, requestTransfer } from "@/tests/support/money";
import { realListFiles } from "@/tests/support/real-ofac-list";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, signupBody } from "@/tests/support/users";

/**
 * Look-alike names (docs/banking.md "Sanctions screening") on the real OFAC extract of 2024-05-03: "HEATH, Noel
 * Timothy" (SDN 6710, DOB 16 Dec 1949) written to pass for another name. Words mixing alphabets and invisible
 * characters are refused where a name is typed; what can be typed (lone letters, a word wholly in Cyrillic or
 * Greek capitals) is screened as the name it imitates, and so is a name stored before the refusal existed.
 */
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
expectLedgerCleanAfterEach(t);

const HEATH = 6710;
const HEATH_DOB = "1949-12-16";
const freshSsn = ssnSequence(300, 2000);

/** The three refused spellings, as [first name, last name]. */
const REFUSED: Record<string, [string, string, string]> = {
  "Greek and Cyrillic letters inside Latin words": [
    "\u039d\u043e\u0435l",
    "Timothy \u041d\u0435\u0430th",
    NAME_MESSAGES.mixedScripts,
  ],
  "a zero-width space": ["No\u200bel", "He\u200bath", NAME_MESSAGES.invisibleCharacters],
  "a soft hyphen": ["Noel Timothy", "Hea\u00adth", NAME_MESSAGES.invisibleCharacters],
};
/** Spellings a name field takes, each to be screened as HEATH, Noel Timothy. */
const TAKEN: Record<string, [string, string]> = {
  "letters spelled out with dots": ["N.o.e.l", "H.e.a.t.h"],
  "a family name wholly in Cyrillic capitals": ["Noel Timothy", "\u041d\u0415\u0410\u0422\u041d"],
  "a family name wholly in Greek capitals": ["Noel Timothy", "\u0397\u0395\u0391\u03a4\u0397"],
};

const hitsOf = (userId: string) =>
  t.database.db.select().from(complianceHits).where(eq(complianceHits.userId, userId));

const expectNameRefusal = (res: { statusCode: number; json(): unknown }, message: string, field: string) => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({
    message,
    code: "VALIDATION",
    reason: "name_characters_invalid",
    nameCharactersInvalid: true,
    field,
  });
};

let listId: string;
beforeAll(async () => {
  ({ id: listId } = await loadSanctionsList(t.database.db, realListFiles(), {
    actorId: null,
    actorRole: null,
    source: "cli",
  }));
}, 120_000);

describe("at sign-up", () => {
  const register = (firstName: string, lastName: string) => {
    const body = signupBody({ firstName, lastName });
    return { body, res: t.app.inject({ method: "POST", url: "/api/auth/register", payload: body }) };
  };
  const userIdOf = async (email: string) =>
    (await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())))[0]
      ?.id;

  it.each(Object.entries(REFUSED))(
    "refuses a name with %s, and creates nobody",
    async (_, [first, last, message]) => {
      const { body, res } = register(first, last);
      const answer = await res;
      expectNameRefusal(answer, message, first.startsWith("Noel ") ? "lastName" : "firstName");
      expect(await userIdOf(body.email)).toBeUndefined();
    },
  );

  it.each(Object.entries(TAKEN))(
    "takes a name with %s and files nothing: sign-up has no date of birth and screens no name (decision 053)",
    async (_, [first, last]) => {
      const { body, res } = register(first, last);
      expect((await res).statusCode).toBe(200);
      const userId = await userIdOf(body.email);
      expect(userId).toBeDefined();
      expect(await hitsOf(userId!)).toEqual([]);
    },
  );
});

describe("at KYC, with the listed date of birth", () => {
  const apply = async (firstName: string, lastName: string) => {
    const applicant = await createVerifiedUser(t.database, { firstName: "Sam", lastName: "Taylor" });
    const { response } = await applyWithLicence(t.app, applicant.cookie, {
      ...PERSONAL_KYC_FIELDS,
      firstName,
      lastName,
      dateOfBirth: HEATH_DOB,
      ssn: freshSsn(),
    });
    return { applicant, response };
  };

  it.each(Object.entries(REFUSED))(
    "refuses a name with %s, and writes nothing",
    async (_, [first, last, message]) => {
      const { applicant, response } = await apply(first, last);
      expectNameRefusal(response, message, first.startsWith("Noel ") ? "lastName" : "firstName");
      const applications = await t.database.db
        .select()
        .from(kycApplications)
        .where(eq(kycApplications.userId, applicant.user.id));
      expect(applications).toEqual([]);
      expect(await hitsOf(applicant.user.id)).toEqual([]);
    },
  );

  it.each(Object.entries(TAKEN))(
    "takes a name with %s and files a hit on HEATH",
    async (_, [first, last]) => {
      const { applicant, response } = await apply(first, last);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().kyc.status).toBe("pending");
      expect((await hitsOf(applicant.user.id)).map((h) => [h.screeningPoint, h.entNum])).toEqual([
        ["kyc", HEATH],
      ]);
    },
  );

  it("refuses a company name that hides invisible characters", async () => {
    const applicant = await createVerifiedUser(t.database);
    const { response } = await applyWithLicence(t.app, applicant.cookie, {
      ...PERSONAL_KYC_FIELDS,
      accountType: "business",
      companyName: "Acme\u200b Trading",
      ssn: freshSsn(),
    });
    expectNameRefusal(response, NAME_MESSAGES.invisibleCharacters, "companyName");
  });
});

describe("as a saved recipient's name, and a transfer's payee", () => {
  const save = async (name: string) => {
    const customer = await createApprovedCustomer(t.database);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/recipients",
      headers: { cookie: customer.cookie },
      payload: { name, address: `0x${randomBytes(20).toString("hex")}` },
    });
    return { customer, res };
  };

  it.each(Object.entries(REFUSED))("refuses a recipient named with %s", async (_, [first, last, message]) => {
    const { customer, res } = await save(`${first} ${last}`);
    expectNameRefusal(res, message, "name");
    const saved = await t.database.db
      .select()
      .from(savedRecipients)
      .where(eq(savedRecipients.userId, customer.user.id));
    expect(saved).toEqual([]);
  });

  it.each(Object.entries(TAKEN))(
    "saves a recipient named with %s and files a hit on HEATH",
    async (_, [first, last]) => {
      const { customer, res } = await save(`${first} ${last}`);
      expect(res.statusCode, res.body).toBe(201);
      expect(
        (await hitsOf(customer.user.id)).map((h) => [h.screeningPoint, h.subjectType, h.entNum]),
      ).toEqual([["recipient", "name", HEATH]]);
    },
  );

  it.each(Object.entries(REFUSED))(
    "refuses a transfer to a payee named with %s",
    async (_, [first, last, message]) => {
      const customer = await createApprovedCustomer(t.database);
      const res = await requestTransfer(t.app, customer, { amount: 10, recipientName: `${first} ${last}` });
      expectNameRefusal(res, message, "recipientName");
      // Nor is a passkey asked to sign a transfer the request would then refuse.
      const options = await t.app.inject({
        method: "POST",
        url: "/api/transfer/passkey-options",
        headers: { cookie: customer.cookie },
        payload: {
          amount: 10,
          recipientName: `${first} ${last}`,
          cryptoAddress: `0x${randomBytes(20).toString("hex")}`,
          idempotencyKey: randomBytes(8).toString("hex"),
        },
      });
      expectNameRefusal(options, message, "recipientName");
    },
  );
});

describe("names stored before the refusal existed", () => {
  it("screens them as the name they imitate when the list changes", async () => {
    const [first, last] = REFUSED["Greek and Cyrillic letters inside Latin words"]!;
    const hidden = await createVerifiedUser(t.database, { firstName: first, lastName: last });
    const zeroWidth = await createVerifiedUser(t.database, {
      firstName: "No\u200bel",
      lastName: "He\u200bath",
    });
    // Re-screened with the date of birth of their application, as every customer's name is (decision 053).
    for (const customer of [hidden, zeroWidth]) {
      await t.database.db.insert(kycApplications).values({
        userId: customer.user.id,
        accountType: "personal",
        firstName: customer.user.firstName,
        lastName: customer.user.lastName,
        dateOfBirth: HEATH_DOB,
        street: "1 Main St",
        city: "New York",
        state: "NY",
        zipCode: "10001",
        address: "1 Main St, New York, NY 10001",
        ssnCiphertext: "fixture",
        ssnIndex: randomBytes(16).toString("hex"),
        ssnLast4: "1234",
      });
    }
    const run = await runRescreenToEnd(t.database.db, t.app.deps.config.sanctionsNameThreshold, listId);
    expect(run.status).toBe("done");
    for (const customer of [hidden, zeroWidth])
      expect((await hitsOf(customer.user.id)).map((h) => [h.subjectType, h.entNum])).toEqual([
        ["name", HEATH],
      ]);
  });
});

describe("names that are not imitations", () => {
  it("takes names wholly in another alphabet, Japanese mixing its scripts, and Persian's joiner", async () => {
    for (const [firstName, lastName] of [
      ["Владимир", "Иванов"],
      ["Γιώργος", "Παπαδόπουλος"],
      ["さくら子", "山田"],
      ["Mary-Jane", "O’Brien"],
      ["\u0645\u062d\u0645\u062f\u200c\u0631\u0636\u0627", "\u0627\u062d\u0645\u062f\u06cc"],
    ]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: signupBody({ firstName, lastName }),
      });
      expect(res.statusCode, `${firstName} ${lastName}: ${res.body}`).toBe(200);
    }
  });
});
