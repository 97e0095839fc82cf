import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RECIPIENT_LIMIT, RECIPIENT_MESSAGES } from "@/contract/recipients";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { queryRows } from "@/server/db/client";
import { auditLog, savedRecipients } from "@/server/db/schema";
import {
  createApprovedCustomer,
  createFundedCustomer,
  ETH_ADDRESS,
  expectLedgerCleanAfterEach,
} from "@/tests/support/money";
import { enrolTotp, freshTotpCode } from "@/tests/support/second-factor";
import { SoftwareAuthenticator } from "@/tests/support/software-authenticator";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

/** Same first and last 4 characters after `0x` as ETH_ADDRESS (0x5290…9EE7), another address in between. */
const LOOKALIKE = `0x5290${"f".repeat(32)}9ee7`;
const SOLANA = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
const SOLANA_LOOKALIKE = "7EcDaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaFLtV";
const randomEth = () => `0x${randomBytes(20).toString("hex")}`;

const call = (
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  who: SignedInUser | null,
  payload?: object,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { ...(who ? { cookie: who.cookie } : {}), ...headers },
    ...(payload === undefined ? {} : { payload }),
  });

const save = (who: SignedInUser | null, name: string, address: string) =>
  call("POST", "/api/recipients", who, { name, address });

async function savedOk(who: SignedInUser, name: string, address: string) {
  const res = await save(who, name, address);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().recipient as { id: string; name: string; address: string };
}

const list = async (who: SignedInUser) => {
  const res = await call("GET", "/api/recipients", who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as { id: string; name: string; address: string }[];
};

const check = (who: SignedInUser, address: string) =>
  call("GET", `/api/recipients/address-check?address=${encodeURIComponent(address)}`, who);

const fundedCustomer = (amount = "1000.00") => createFundedCustomer(t, admin, amount);

const send = (who: SignedInUser, address: string, extra: object = {}, key?: string) =>
  call(
    "POST",
    "/api/transfer/request",
    who,
    {
      amount: "10.00",
      recipientName: "Grace Hopper",
      purpose: "Rent",
      paymentMethod: "crypto",
      cryptoAddress: address,
      ...extra,
    },
    key ? { "idempotency-key": key } : {},
  );

/** Rows in every table a transfer or a save writes: equal before and after means nothing was written. */
async function counts() {
  return (
    await queryRows(
      t.database.db,
      sql`
    select (select count(*) from transfer_requests)::int as transfers, (select count(*) from holds)::int as holds,
           (select count(*) from transactions)::int as transactions, (select count(*) from postings)::int as postings,
           (select count(*) from idempotency_keys)::int as keys, (select count(*) from mail_outbox)::int as mails,
           (select count(*) from saved_recipients)::int as recipients, (select count(*) from audit_log)::int as audits`,
      z.record(z.string(), z.number()),
    )
  )[0];
}

async function expectNothingWritten(run: () => Promise<void>) {
  // The mail of a transfer made earlier is written after its commit, by the jobs room: not this run's doing.
  await t.app.jobs.drainConsumers();
  const before = await counts();
  await run();
  await t.app.jobs.drainConsumers();
  expect(await counts()).toEqual(before);
}

describe("saved recipients: the customer's own address book", () => {
  it("saves, lists by name, renames and removes, with an audit row for each change", async () => {
    const ada = await createApprovedCustomer(t.database);
    expect(await list(ada)).toEqual([]);
    const grace = await savedOk(ada, "  Grace Hopper  ", ETH_ADDRESS);
    expect(grace).toMatchObject({ name: "Grace Hopper", address: ETH_ADDRESS });
    await savedOk(ada, "alan", SOLANA);
    expect((await list(ada)).map((r) => r.name)).toEqual(["alan", "Grace Hopper"]);

    const renamed = await call("PATCH", `/api/recipients/${grace.id}`, ada, { name: "Grace (work)" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      message: RECIPIENT_MESSAGES.renamed,
      recipient: { name: "Grace (work)" },
    });

    const removed = await call("DELETE", `/api/recipients/${grace.id}`, ada);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: RECIPIENT_MESSAGES.removed });
    expect((await list(ada)).map((r) => r.name)).toEqual(["alan"]);
    expect((await call("DELETE", `/api/recipients/${grace.id}`, ada)).statusCode).toBe(404);

    const audits = await t.database.db
      .select({ action: auditLog.action, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "saved_recipient"), eq(auditLog.targetId, grace.id)))
      .orderBy(auditLog.id);
    expect(audits).toEqual([
      { action: "recipient.add", before: null, after: { name: "Grace Hopper", address: ETH_ADDRESS } },
      { action: "recipient.rename", before: { name: "Grace Hopper" }, after: { name: "Grace (work)" } },
      { action: "recipient.remove", before: { name: "Grace (work)", address: ETH_ADDRESS }, after: null },
    ]);
  });

  it("refuses bad names and addresses with 400 and a message, writing nothing", async () => {
    const ada = await createApprovedCustomer(t.database);
    const cases: [unknown, unknown, string][] = [
      ["", ETH_ADDRESS, RECIPIENT_MESSAGES.nameRequired],
      ["   ", ETH_ADDRESS, RECIPIENT_MESSAGES.nameRequired],
      ["x".repeat(61), ETH_ADDRESS, RECIPIENT_MESSAGES.nameTooLong],
      ["Nul\u0000Name", ETH_ADDRESS, RECIPIENT_MESSAGES.nameInvalid],
      ["Line\nbreak", ETH_ADDRESS, RECIPIENT_MESSAGES.nameInvalid],
      [42, ETH_ADDRESS, RECIPIENT_MESSAGES.nameRequired],
      ["Grace", "0x123", TRANSFER_MESSAGES.addressInvalid],
      ["Grace", `${ETH_ADDRESS}0`, TRANSFER_MESSAGES.addressInvalid],
      ["Grace", "x".repeat(500), TRANSFER_MESSAGES.addressInvalid],
      ["Grace", `0x\u0000${"a".repeat(39)}`, TRANSFER_MESSAGES.addressInvalid],
      ["Grace", "", RECIPIENT_MESSAGES.addressRequired],
      ["Grace", null, RECIPIENT_MESSAGES.addressRequired],
    ];
    await expectNothingWritten(async () => {
      for (const [name, address, message] of cases) {
        const res = await call("POST", "/api/recipients", ada, { name, address });
        expect(res.statusCode, `${JSON.stringify([name, address])}: ${res.body}`).toBe(400);
        expect(res.json().message).toBe(message);
      }
      const saved = await savedOk(ada, "Grace", ETH_ADDRESS);
      for (const name of ["", "x".repeat(61), "a\u0000b"]) {
        const res = await call("PATCH", `/api/recipients/${saved.id}`, ada, { name });
        expect(res.statusCode, res.body).toBe(400);
      }
      await call("DELETE", `/api/recipients/${saved.id}`, ada);
      await t.database.db.delete(auditLog).where(eq(auditLog.targetId, saved.id));
    });
    // Exactly 60 characters is fine, and is kept as written.
    expect((await savedOk(ada, "y".repeat(60), randomEth())).name).toHaveLength(60);
  });

  it("answers 409 duplicateRecipient for an address already saved, whatever its case", async () => {
    const ada = await createApprovedCustomer(t.database);
    await savedOk(ada, "Grace", ETH_ADDRESS);
    await expectNothingWritten(async () => {
      for (const address of [
        ETH_ADDRESS,
        ETH_ADDRESS.toLowerCase(),
        ` ${ETH_ADDRESS.toUpperCase().replace("0X", "0x")} `,
      ]) {
        const res = await save(ada, "Grace again", address);
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toMatchObject({
          duplicateRecipient: true,
          savedAs: "Grace",
          message: RECIPIENT_MESSAGES.duplicate,
        });
      }
    });
    // Another customer keeps a book of their own.
    await savedOk(await createApprovedCustomer(t.database), "Grace", ETH_ADDRESS);
  });

  it("lets two racing saves of one address make exactly one row", async () => {
    const ada = await createApprovedCustomer(t.database);
    const address = randomEth();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => save(ada, `Grace ${i}`, address)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await list(ada)).toHaveLength(1);
  });

  it(`caps a customer at ${RECIPIENT_LIMIT} recipients with 422 recipientLimitReached, also when saves race`, async () => {
    const ada = await createApprovedCustomer(t.database);
    await t.database.db.insert(savedRecipients).values(
      Array.from({ length: RECIPIENT_LIMIT - 2 }, (_, i) => ({
        userId: ada.user.id,
        name: `R${i}`,
        address: randomEth(),
      })),
    );
    const racing = await Promise.all(
      Array.from({ length: 5 }, (_, i) => save(ada, `Late ${i}`, randomEth())),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 201, 422, 422, 422]);
    for (const refused of racing.filter((r) => r.statusCode === 422)) {
      expect(refused.json()).toMatchObject({ recipientLimitReached: true, recipientLimit: RECIPIENT_LIMIT });
    }
    expect(await list(ada)).toHaveLength(RECIPIENT_LIMIT);
    // Removing one makes room again.
    const [first] = await list(ada);
    expect((await call("DELETE", `/api/recipients/${first!.id}`, ada)).statusCode).toBe(200);
    await savedOk(ada, "Room again", randomEth());
  });

  it("never lets another customer see, rename or remove someone's recipient (404, nothing written)", async () => {
    const ada = await createApprovedCustomer(t.database);
    const bob = await createApprovedCustomer(t.database);
    const grace = await savedOk(ada, "Grace", ETH_ADDRESS);
    expect(await list(bob)).toEqual([]);
    const bobCheck = await check(bob, ETH_ADDRESS);
    expect(bobCheck.json()).toEqual({ savedRecipient: null, lookalike: null, isFirstPayment: true });
    expect((await check(bob, LOOKALIKE)).json().lookalike).toBeNull();
    await expectNothingWritten(async () => {
      for (const id of [grace.id, grace.id.toUpperCase(), randomUUID(), "not-a-uuid", "1 or 1=1"]) {
        const rename = await call("PATCH", `/api/recipients/${encodeURIComponent(id)}`, bob, {
          name: "Mine now",
        });
        expect(rename.statusCode, rename.body).toBe(404);
        expect(rename.json().message).toBe(RECIPIENT_MESSAGES.notFound);
        expect(rename.body).not.toContain(ETH_ADDRESS);
        const remove = await call("DELETE", `/api/recipients/${encodeURIComponent(id)}`, bob);
        expect(remove.statusCode, remove.body).toBe(404);
      }
    });
    expect((await list(ada)).map((r) => r.name)).toEqual(["Grace"]);
  });

  it("is for signed-in customers only: 401 signed out, 403 for staff, on every route", async () => {
    const ada = await createApprovedCustomer(t.database);
    const grace = await savedOk(ada, "Grace", ETH_ADDRESS);
    await expectNothingWritten(async () => {
      const routes: [Parameters<typeof call>[0], string, object?][] = [
        ["GET", "/api/recipients"],
        ["GET", `/api/recipients/address-check?address=${ETH_ADDRESS}`],
        ["POST", "/api/recipients", { name: "X", address: randomEth() }],
        ["PATCH", `/api/recipients/${grace.id}`, { name: "X" }],
        ["DELETE", `/api/recipients/${grace.id}`],
      ];
      for (const [method, url, body] of routes) {
        const signedOut = await call(method, url, null, body);
        expect(signedOut.statusCode, `${method} ${url}`).toBe(401);
        const staff = await call(method, url, admin, body);
        expect(staff.statusCode, `${method} ${url}`).toBe(403);
        expect(staff.json()).toMatchObject({ customersOnly: true });
      }
    });
  });
});

describe("the address check the review step shows", () => {
  it("names a saved address, spots a lookalike and knows a first payment", async () => {
    const ada = await fundedCustomer();
    const grace = await savedOk(ada, "Grace", ETH_ADDRESS);
    expect((await check(ada, ETH_ADDRESS.toLowerCase())).json()).toEqual({
      savedRecipient: { id: grace.id, name: "Grace" },
      lookalike: null,
      isFirstPayment: true,
    });
    expect((await check(ada, LOOKALIKE)).json()).toEqual({
      savedRecipient: null,
      lookalike: { id: grace.id, name: "Grace", address: ETH_ADDRESS },
      isFirstPayment: true,
    });
    // Only the first and last 4 characters after 0x count: one character off at either end is no lookalike.
    for (const near of [
      `0x5291${"f".repeat(32)}9ee7`,
      `0x5290${"f".repeat(32)}9ee8`,
      `0x52aa${"f".repeat(32)}9ee7`,
    ]) {
      expect((await check(ada, near)).json().lookalike, near).toBeNull();
    }
    await savedOk(ada, "Sol", SOLANA);
    expect((await check(ada, SOLANA_LOOKALIKE)).json().lookalike).toMatchObject({ name: "Sol" });

    expect((await send(ada, ETH_ADDRESS)).statusCode).toBe(201);
    expect((await check(ada, ETH_ADDRESS.toLowerCase())).json().isFirstPayment).toBe(false);
  });

  it("still calls it a first payment when the only earlier transfer was cancelled", async () => {
    const ada = await fundedCustomer();
    const address = randomEth();
    const sent = await send(ada, address);
    expect(sent.statusCode, sent.body).toBe(201);
    expect((await check(ada, address)).json().isFirstPayment).toBe(false);
    const cancelled = await call("POST", `/api/transfers/${sent.json().transferRequest.id}/cancel`, ada);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await check(ada, address)).json().isFirstPayment).toBe(true);
  });

  it("refuses a malformed address with 400", async () => {
    const ada = await createApprovedCustomer(t.database);
    for (const address of ["", "0x12", "%00"]) {
      const res = await call("GET", `/api/recipients/address-check?address=${address}`, ada);
      expect(res.statusCode, res.body).toBe(400);
      expect(typeof res.json().message).toBe("string");
    }
  });
});

describe("a transfer to a lookalike of a saved recipient", () => {
  it("is refused with 422 lookalikeAddress and writes nothing, unless the customer confirms it", async () => {
    const ada = await fundedCustomer();
    await savedOk(ada, "Grace", ETH_ADDRESS);
    await expectNothingWritten(async () => {
      for (const extra of [{}, { confirmLookalikeAddress: false }]) {
        const res = await send(ada, LOOKALIKE, extra, randomUUID());
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toMatchObject({
          lookalikeAddress: true,
          lookalikeRecipientName: "Grace",
          message: RECIPIENT_MESSAGES.lookalikeRefused("Grace"),
        });
        expect(res.json().reason).toBe("lookalike_address");
      }
    });
    const confirmed = await send(ada, LOOKALIKE, { confirmLookalikeAddress: true });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    expect(confirmed.json().transferRequest.cryptoAddress).toBe(LOOKALIKE);
  });

  it("needs nothing for a saved address (any case), an address with no lookalike, or a customer with no book", async () => {
    const ada = await fundedCustomer();
    await savedOk(ada, "Grace", ETH_ADDRESS);
    for (const address of [ETH_ADDRESS, ETH_ADDRESS.toLowerCase(), randomEth()]) {
      const res = await send(ada, address);
      expect(res.statusCode, res.body).toBe(201);
    }
    // Saving the lookalike itself vouches for it: it is then a saved address like any other.
    await savedOk(ada, "Grace (new wallet)", LOOKALIKE);
    expect((await send(ada, LOOKALIKE)).statusCode).toBe(201);
    const bob = await fundedCustomer();
    expect((await send(bob, LOOKALIKE)).statusCode).toBe(201);
  });

  it("replays an answered key as before, with or without the confirmation, even after a lookalike was saved", async () => {
    const ada = await fundedCustomer();
    const key = randomUUID();
    const first = await send(ada, LOOKALIKE, {}, key);
    expect(first.statusCode, first.body).toBe(201);
    await savedOk(ada, "Grace", ETH_ADDRESS);
    await expectNothingWritten(async () => {
      for (const extra of [{}, { confirmLookalikeAddress: true }]) {
        const replay = await send(ada, LOOKALIKE, extra, key);
        expect(replay.statusCode, replay.body).toBe(201);
        expect(replay.headers["idempotent-replayed"]).toBe("true");
        expect(replay.json()).toEqual(first.json());
      }
    });
    // A refused lookalike keeps its key free: the confirmed retry with the same key makes the one transfer.
    const retryKey = randomUUID();
    expect((await send(ada, `0x5290${"e".repeat(32)}9ee7`, {}, retryKey)).statusCode).toBe(422);
    const retried = await send(
      ada,
      `0x5290${"e".repeat(32)}9ee7`,
      { confirmLookalikeAddress: true },
      retryKey,
    );
    expect(retried.statusCode, retried.body).toBe(201);
    // Another body under an answered key is still a conflict.
    expect((await send(ada, ETH_ADDRESS, {}, key)).statusCode).toBe(409);
  });

  it("refuses a non-boolean confirmation with 400", async () => {
    const ada = await fundedCustomer();
    await savedOk(ada, "Grace", ETH_ADDRESS);
    await expectNothingWritten(async () => {
      for (const value of ["true", 1, null, {}]) {
        const res = await send(ada, LOOKALIKE, { confirmLookalikeAddress: value });
        expect(res.statusCode, res.body).toBe(400);
      }
    });
  });
});

describe("a passkey-signed transfer to a lookalike", () => {
  async function customerWithPasskey() {
    const customer = await fundedCustomer();
    const authenticator = new SoftwareAuthenticator();
    const options = await call("POST", "/api/auth/passkeys/registration-options", customer);
    expect(options.statusCode, options.body).toBe(200);
    const { response } = authenticator.register(options.json());
    const added = await call("POST", "/api/auth/passkeys", customer, { name: "Laptop", response });
    expect(added.statusCode, added.body).toBe(200);
    return { ...customer, authenticator };
  }
  const fields = (address: string, key: string) => ({
    amount: "10.00",
    recipientName: "Grace Hopper",
    cryptoAddress: address,
    idempotencyKey: key,
  });

  it("gets no challenge without the confirmation, and the signature still binds the address it was made for", async () => {
    const ada = await customerWithPasskey();
    await savedOk(ada, "Grace", ETH_ADDRESS);
    const key = randomUUID();
    await expectNothingWritten(async () => {
      const refused = await call("POST", "/api/transfer/passkey-options", ada, fields(LOOKALIKE, key));
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json()).toMatchObject({ lookalikeAddress: true, lookalikeRecipientName: "Grace" });
      expect(refused.json().reason).toBe("lookalike_address");
    });

    const options = await call("POST", "/api/transfer/passkey-options", ada, {
      ...fields(LOOKALIKE, key),
      confirmLookalikeAddress: true,
    });
    expect(options.statusCode, options.body).toBe(200);
    const { challengeId, options: webauthn } = options.json();
    const proof = { method: "passkey", challengeId, response: ada.authenticator.assert(webauthn) };

    // The confirmation cannot carry that signature to another lookalike of the same recipient.
    const elsewhere = await send(
      ada,
      `0x5290${"e".repeat(32)}9ee7`,
      { confirmLookalikeAddress: true, secondFactor: proof },
      key,
    );
    expect(elsewhere.statusCode, elsewhere.body).toBe(400);
    expect(elsewhere.json()).toMatchObject({ secondFactorInvalid: true });

    const again = await call("POST", "/api/transfer/passkey-options", ada, {
      ...fields(LOOKALIKE, key),
      confirmLookalikeAddress: true,
    });
    const signed = {
      method: "passkey",
      challengeId: again.json().challengeId,
      response: ada.authenticator.assert(again.json().options),
    };
    const sent = await send(ada, LOOKALIKE, { confirmLookalikeAddress: true, secondFactor: signed }, key);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().transferRequest.cryptoAddress).toBe(LOOKALIKE);
  });

  it("refuses a signed lookalike submitted without the confirmation, and writes nothing but the spent challenge", async () => {
    const ada = await customerWithPasskey();
    await savedOk(ada, "Grace", ETH_ADDRESS);
    const key = randomUUID();
    const options = await call("POST", "/api/transfer/passkey-options", ada, {
      ...fields(LOOKALIKE, key),
      confirmLookalikeAddress: true,
    });
    const proof = {
      method: "passkey",
      challengeId: options.json().challengeId,
      response: ada.authenticator.assert(options.json().options),
    };
    const before = await counts();
    const res = await send(ada, LOOKALIKE, { secondFactor: proof }, key);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ lookalikeAddress: true });
    expect(await counts()).toEqual(before);
  });
});

describe("a TOTP-proved transfer to a lookalike", () => {
  it("does not spend the code on the refusal, and the same code sends it once confirmed", async () => {
    const ada = await fundedCustomer();
    const { secret } = await enrolTotp(t.app, ada.cookie);
    await savedOk(ada, "Grace", ETH_ADDRESS);
    const code = await freshTotpCode(t.database, ada.user.id, secret);
    const secondFactor = { method: "totp", code };
    const refused = await send(ada, LOOKALIKE, { secondFactor }, randomUUID());
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({ lookalikeAddress: true });
    const sent = await send(ada, LOOKALIKE, { secondFactor, confirmLookalikeAddress: true }, randomUUID());
    expect(sent.statusCode, sent.body).toBe(201);
  });
});
