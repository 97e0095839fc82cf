import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SECURITY_MESSAGES } from "@/contract/security";
import { queryRows } from "@/server/db/client";
import {
  createApprovedCustomer,
  createFundedCustomer,
  ETH_ADDRESS,
  expectLedgerClean,
  fundCustomer,
} from "@/tests/support/money";
import { enrolTotp, freshTotpCode } from "@/tests/support/second-factor";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "10" });
const admin = setUpAdminUser(t);

const transfer = (amount: string) => ({
  amount,
  recipientName: "Grace Hopper",
  purpose: "Rent",
  paymentMethod: "crypto",
  cryptoAddress: ETH_ADDRESS,
});

const send = (cookie: string, body: object, key?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/transfer/request",
    headers: { cookie, ...(key ? { "idempotency-key": key } : {}) },
    payload: body,
  });

async function counts() {
  return (
    await queryRows(
      t.database.db,
      sql`
    select (select count(*) from transfer_requests)::int as transfers, (select count(*) from holds)::int as holds,
           (select count(*) from transactions)::int as transactions`,
      z.record(z.string(), z.number()),
    )
  )[0];
}

async function customerWithTotp(funds = "2000") {
  const customer = await createApprovedCustomer(t.database);
  await fundCustomer(t, admin, customer.user.id, funds);
  return { ...customer, ...(await enrolTotp(t.app, customer.cookie)) };
}

describe("sending money with a second factor on", () => {
  it("refuses a transfer without a proof with 403 stepUpRequired and writes nothing", async () => {
    const customer = await customerWithTotp();
    const before = await counts();
    const res = await send(customer.cookie, transfer("10"), randomUUID());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ stepUpRequired: true, methods: ["totp", "recovery"] });
    expect(await counts()).toEqual(before);
  });

  it("sends with a code bound to that one request; the same code on another transfer is refused", async () => {
    const customer = await customerWithTotp();
    const code = await freshTotpCode(t.database, customer.user.id, customer.secret);
    const key = randomUUID();
    const ok = await send(
      customer.cookie,
      { ...transfer("10"), secondFactor: { method: "totp", code } },
      key,
    );
    expect(ok.statusCode, ok.body).toBe(201);
    const before = await counts();
    const again = await send(
      customer.cookie,
      { ...transfer("10"), secondFactor: { method: "totp", code } },
      randomUUID(),
    );
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ secondFactorInvalid: true });
    expect(await counts()).toEqual(before);

    // A retry of the answered key replays the first transfer without a new proof.
    const replay = await send(customer.cookie, transfer("10"), key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json().transferRequest.id).toBe(ok.json().transferRequest.id);
    expect(await counts()).toEqual(before);
    await expectLedgerClean(t.database);
  });

  it("does not spend the code when the transfer itself is refused", async () => {
    const customer = await customerWithTotp("20");
    const code = await freshTotpCode(t.database, customer.user.id, customer.secret);
    const tooMuch = await send(
      customer.cookie,
      { ...transfer("1000"), secondFactor: { method: "totp", code } },
      randomUUID(),
    );
    expect(tooMuch.statusCode).toBe(422);
    const fits = await send(
      customer.cookie,
      { ...transfer("15"), secondFactor: { method: "totp", code } },
      randomUUID(),
    );
    expect(fits.statusCode, fits.body).toBe(201);
    await expectLedgerClean(t.database);
  });

  it("needs an Idempotency-Key with the proof, and takes a recovery code once", async () => {
    const customer = await customerWithTotp();
    const code = await freshTotpCode(t.database, customer.user.id, customer.secret);
    const noKey = await send(customer.cookie, { ...transfer("10"), secondFactor: { method: "totp", code } });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()).toMatchObject({
      idempotencyKeyRequired: true,
      message: SECURITY_MESSAGES.idempotencyKeyRequired,
    });
    const recovery = { method: "recovery", code: customer.recoveryCodes[0] };
    expect(
      (await send(customer.cookie, { ...transfer("10"), secondFactor: recovery }, randomUUID())).statusCode,
    ).toBe(201);
    expect(
      (await send(customer.cookie, { ...transfer("10"), secondFactor: recovery }, randomUUID())).statusCode,
    ).toBe(400);
    await expectLedgerClean(t.database);
  });

  it("refuses a passkey proof that does not verify (a signature for $10 submitted as $1,000 never does)", async () => {
    const customer = await customerWithTotp();
    const before = await counts();
    const res = await send(
      customer.cookie,
      {
        ...transfer("1000"),
        secondFactor: { method: "passkey", challengeId: randomUUID(), response: { id: "x" } },
      },
      randomUUID(),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ secondFactorInvalid: true });
    expect(await counts()).toEqual(before);
  });

  it("keeps today's flow for customers without a second factor", async () => {
    const customer = await createFundedCustomer(t, admin, "50");
    expect((await send(customer.cookie, transfer("10"))).statusCode).toBe(201);
    await expectLedgerClean(t.database);
  });
});
