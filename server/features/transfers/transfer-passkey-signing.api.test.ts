import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "@/server/db/client";
import {
  createApprovedCustomer,
  createFundedCustomer,
  ETH_ADDRESS,
  expectLedgerClean,
  fundCustomer,
} from "@/tests/support/money";
import { SoftwareAuthenticator } from "@/tests/support/software-authenticator";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);

const OTHER_ADDRESS = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";

interface Fields {
  amount: string;
  recipientName: string;
  cryptoAddress: string;
  idempotencyKey: string;
}

const post = (
  url: string,
  cookie: string | undefined,
  payload?: object,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method: "POST",
    url,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    ...(payload === undefined ? {} : { payload }),
  });

/** A customer with one passkey, registered through the real routes, and money to send. */
async function customerWithPasskey(funds = "2000") {
  const customer = await createApprovedCustomer(t.database);
  await fundCustomer(t, admin, customer.user.id, funds);
  const authenticator = new SoftwareAuthenticator();
  const options = await post("/api/auth/passkeys/registration-options", customer.cookie);
  expect(options.statusCode, options.body).toBe(200);
  const { response } = authenticator.register(options.json());
  const added = await post("/api/auth/passkeys", customer.cookie, { name: "Laptop", response });
  expect(added.statusCode, added.body).toBe(200);
  return { ...customer, authenticator };
}

const fieldsFor = (amount: string, overrides: Partial<Fields> = {}): Fields => ({
  amount,
  recipientName: "Grace Hopper",
  cryptoAddress: ETH_ADDRESS,
  idempotencyKey: randomUUID(),
  ...overrides,
});

/** What the send-money confirm step does: options for these exact fields, then the authenticator's answer. */
async function signTransfer(who: { cookie: string; authenticator: SoftwareAuthenticator }, fields: Fields) {
  const res = await post("/api/transfer/passkey-options", who.cookie, fields);
  expect(res.statusCode, res.body).toBe(200);
  const { challengeId, options } = res.json();
  return { method: "passkey", challengeId, response: who.authenticator.assert(options) };
}

const submit = (cookie: string, fields: Fields, secondFactor?: object) =>
  post(
    "/api/transfer/request",
    cookie,
    {
      amount: fields.amount,
      recipientName: fields.recipientName,
      cryptoAddress: fields.cryptoAddress,
      purpose: "Rent",
      paymentMethod: "crypto",
      ...(secondFactor ? { secondFactor } : {}),
    },
    { "idempotency-key": fields.idempotencyKey },
  );

async function counts() {
  return (
    await queryRows(
      t.database.db,
      sql`
    select (select count(*) from transfer_requests)::int as transfers, (select count(*) from holds)::int as holds,
           (select count(*) from transactions)::int as transactions,
           (select count(*) from idempotency_keys)::int as keys`,
      z.record(z.string(), z.number()),
    )
  )[0];
}

async function transfersOf(userId: string) {
  return queryRows(
    t.database.db,
    sql`
    select t.amount::int as amount, t.recipient_name, t.crypto_address, t.status, h.amount::int as held
    from transfer_requests t left join holds h on h.id = t.hold_id where t.user_id = ${userId}`,
    z.object({
      amount: z.number(),
      recipient_name: z.string().nullable(),
      crypto_address: z.string(),
      status: z.string(),
      held: z.number().nullable(),
    }),
  );
}

/** A refusal of a passkey proof: 400 secondFactorInvalid, and not one row written anywhere. */
async function expectRefusedWithoutWrites(send: () => ReturnType<typeof submit>) {
  const before = await counts();
  const res = await send();
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ secondFactorInvalid: true });
  expect(await counts()).toEqual(before);
  return res;
}

describe("a passkey signs one transfer", () => {
  it("sends the $10 it signed: 201 with a $10 hold", async () => {
    const ada = await customerWithPasskey();
    const fields = fieldsFor("10");
    const res = await submit(ada.cookie, fields, await signTransfer(ada, fields));
    expect(res.statusCode, res.body).toBe(201);
    expect(await transfersOf(ada.user.id)).toEqual([
      {
        amount: 1000,
        recipient_name: "Grace Hopper",
        crypto_address: ETH_ADDRESS,
        status: "pending",
        held: 1000,
      },
    ]);
    await expectLedgerClean(t.database);
  });

  it("refuses a $10 signature submitted as $1,000, writes nothing, and the proof still sends only the $10", async () => {
    const ada = await customerWithPasskey();
    const fields = fieldsFor("10");
    const proof = await signTransfer(ada, fields);
    await expectRefusedWithoutWrites(() => submit(ada.cookie, { ...fields, amount: "1000.00" }, proof));
    await expectRefusedWithoutWrites(() => submit(ada.cookie, { ...fields, amount: "10.01" }, proof));
    // A refused assertion is not spent (it never verified), but it can only ever make the transfer it signed.
    const ok = await submit(ada.cookie, fields, proof);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await transfersOf(ada.user.id)).toEqual([expect.objectContaining({ amount: 1000, held: 1000 })]);
    await expectLedgerClean(t.database);
  });

  it.each([
    ["address", { cryptoAddress: OTHER_ADDRESS }],
    ["address with another letter case", { cryptoAddress: ETH_ADDRESS.toLowerCase() }],
    ["recipient name", { recipientName: "Mallory" }],
    ["idempotency key", { idempotencyKey: randomUUID() }],
  ])("refuses the signature when the %s changes, and writes nothing", async (_, change) => {
    const ada = await customerWithPasskey();
    const fields = fieldsFor("10");
    const proof = await signTransfer(ada, fields);
    await expectRefusedWithoutWrites(() => submit(ada.cookie, { ...fields, ...change }, proof));
    expect(await transfersOf(ada.user.id)).toEqual([]);
    await expectLedgerClean(t.database);
  });

  it("takes an assertion once: a retry of the answered key replays, anything else is refused", async () => {
    const ada = await customerWithPasskey();
    const fields = fieldsFor("10");
    const proof = await signTransfer(ada, fields);
    const first = await submit(ada.cookie, fields, proof);
    expect(first.statusCode, first.body).toBe(201);

    const before = await counts();
    const replay = await submit(ada.cookie, fields, proof);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json().transferRequest.id).toBe(first.json().transferRequest.id);
    expect(await counts()).toEqual(before);

    await expectRefusedWithoutWrites(() =>
      submit(ada.cookie, { ...fields, idempotencyKey: randomUUID() }, proof),
    );
    expect(await transfersOf(ada.user.id)).toHaveLength(1);
    await expectLedgerClean(t.database);
  });

  it("spends the assertion even when the transfer is then refused; a new one is needed", async () => {
    const ada = await customerWithPasskey("5");
    const fields = fieldsFor("10");
    const proof = await signTransfer(ada, fields);
    const short = await submit(ada.cookie, fields, proof);
    expect(short.statusCode).toBe(422);
    expect(short.json()).toMatchObject({ insufficientFunds: true });
    await fundCustomer(t, admin, ada.user.id, "20");
    await expectRefusedWithoutWrites(() => submit(ada.cookie, fields, proof));
    const ok = await submit(ada.cookie, fields, await signTransfer(ada, fields));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await transfersOf(ada.user.id)).toHaveLength(1);
    await expectLedgerClean(t.database);
  });

  it("makes exactly one transfer when the same signed request races itself", async () => {
    const ada = await customerWithPasskey();
    const fields = fieldsFor("10");
    const proof = await signTransfer(ada, fields);
    const results = await Promise.all([1, 2, 3].map(() => submit(ada.cookie, fields, proof)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses).toContain(201);
    for (const r of results) expect([201, 400, 409], r.body).toContain(r.statusCode);
    expect(await transfersOf(ada.user.id)).toEqual([expect.objectContaining({ amount: 1000, held: 1000 })]);
    await expectLedgerClean(t.database);
  });

  it("refuses A's proof from another customer's session", async () => {
    const ada = await customerWithPasskey();
    const eve = await customerWithPasskey();
    const fields = fieldsFor("10");
    const proof = await signTransfer(ada, fields);
    await expectRefusedWithoutWrites(() => submit(eve.cookie, fields, proof));
    // Also from a customer with no second factor at all: a passkey proof is checked whenever it is sent.
    const plain = await createFundedCustomer(t, admin, "50");
    await expectRefusedWithoutWrites(() => submit(plain.cookie, fields, proof));
    expect(await transfersOf(eve.user.id)).toEqual([]);
    expect(await transfersOf(plain.user.id)).toEqual([]);
    // Still A's to use for the transfer it signed.
    expect((await submit(ada.cookie, fields, proof)).statusCode).toBe(201);
    await expectLedgerClean(t.database);
  });

  it("refuses a proof made for a sign-in, a step-up or a passwordless sign-in", async () => {
    const ada = await customerWithPasskey();
    const fields = fieldsFor("10");

    const password = await post("/api/auth/login", undefined, { email: ada.email, password: ada.password });
    expect(password.json()).toMatchObject({ secondFactorRequired: true });
    const setCookie = ([] as string[]).concat(password.headers["set-cookie"] ?? []);
    const pending = setCookie.find((c) => c.startsWith("pillar_2fa="))!.split(";")[0];
    const login = await post("/api/auth/login/passkey-options", pending);
    expect(login.statusCode, login.body).toBe(200);
    const loginProof = {
      method: "passkey",
      challengeId: login.json().challengeId,
      response: ada.authenticator.assert(login.json().options),
    };
    await expectRefusedWithoutWrites(() => submit(ada.cookie, fields, loginProof));

    const stepUp = await post("/api/auth/step-up/passkey-options", ada.cookie);
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    const stepUpProof = {
      method: "passkey",
      challengeId: stepUp.json().challengeId,
      response: ada.authenticator.assert(stepUp.json().options),
    };
    await expectRefusedWithoutWrites(() => submit(ada.cookie, fields, stepUpProof));

    const passwordless = await post("/api/auth/passkey-login/options", undefined);
    expect(passwordless.statusCode, passwordless.body).toBe(200);
    const passwordlessProof = {
      method: "passkey",
      challengeId: passwordless.json().challengeId,
      response: ada.authenticator.assert(passwordless.json().options),
    };
    await expectRefusedWithoutWrites(() => submit(ada.cookie, fields, passwordlessProof));

    // The sign-in proof, refused for money, still signs in: the transfer route did not spend it.
    const verify = await post("/api/auth/login/verify", pending, { secondFactor: loginProof });
    expect(verify.statusCode, verify.body).toBe(200);
    expect(await transfersOf(ada.user.id)).toEqual([]);
    await expectLedgerClean(t.database);
  });

  it("asks for a proof with 403 stepUpRequired when none is sent, and writes nothing", async () => {
    const ada = await customerWithPasskey();
    const before = await counts();
    const res = await submit(ada.cookie, fieldsFor("10"));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ stepUpRequired: true, methods: expect.arrayContaining(["passkey"]) });
    expect(await counts()).toEqual(before);
    await expectLedgerClean(t.database);
  });

  it("refuses a signed transfer without its Idempotency-Key, writing nothing", async () => {
    const ada = await customerWithPasskey();
    const fields = fieldsFor("10");
    const proof = await signTransfer(ada, fields);
    const before = await counts();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/transfer/request",
      headers: { cookie: ada.cookie },
      payload: {
        ...fields,
        idempotencyKey: undefined,
        purpose: "Rent",
        paymentMethod: "crypto",
        secondFactor: proof,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ idempotencyKeyRequired: true });
    expect(await counts()).toEqual(before);
    await expectLedgerClean(t.database);
  });
});
