import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { addDays } from "@/server/features/schedules/schedule-dates";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { createApprovedCustomer, ETH_ADDRESS, expectLedgerCleanAfterEach } from "@/tests/support/money";
import { enrolTotp, freshTotpCode, stepUpWithTotp } from "@/tests/support/second-factor";
import { SoftwareAuthenticator } from "@/tests/support/software-authenticator";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// The schedules API (decision 036): a customer's own schedules to their own saved recipients.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" }, { scheduleRunner: false });
expectLedgerCleanAfterEach(t);

const TODAY = limitDayOf(new Date());
const TOMORROW = addDays(TODAY, 1);

type Method = "GET" | "POST" | "PATCH";
const call = (who: SignedInUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function recipientOf(customer: SignedInUser, address = ETH_ADDRESS): Promise<string> {
  const res = await call(customer, "POST", "/api/recipients", { name: "Sam Lee", address });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().recipient.id;
}

const form = (recipientId: string, extra: Record<string, unknown> = {}) => ({
  recipientId,
  amount: "25.00",
  cadence: "monthly",
  startOn: TOMORROW,
  requestKey: `form-${randomBytes(8).toString("hex")}`,
  ...extra,
});

async function created(customer: SignedInUser, extra: Record<string, unknown> = {}) {
  const res = await call(customer, "POST", "/api/schedules", form(await recipientOf(customer), extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().schedule as { id: string; status: string; upcoming: string[] };
}

const scheduleCount = async (customer: SignedInUser) =>
  Number(
    (
      await t.database.query<{ n: string }>(
        "select count(*)::text as n from transfer_schedules where user_id = $1",
        [customer.user.id],
      )
    )[0]!.n,
  );

describe("making a schedule", () => {
  it("schedules a monthly transfer to a saved recipient and lists it with its next dates", async () => {
    const customer = await createApprovedCustomer(t.database);
    const recipientId = await recipientOf(customer);
    const body = form(recipientId, { startOn: TOMORROW, endOn: addDays(TOMORROW, 40) });
    const res = await call(customer, "POST", "/api/schedules", body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: "Transfer scheduled",
      schedule: {
        recipientId,
        recipientName: "Sam Lee",
        address: ETH_ADDRESS,
        amountCents: 2500,
        formattedAmount: "$25.00",
        cadence: "monthly",
        status: "active",
        lastRun: null,
        purpose: "Scheduled transfer to Sam Lee",
      },
    });
    expect(res.json().schedule.upcoming[0]).toBe(TOMORROW);
    expect(res.json().schedule.upcoming.length).toBeLessThanOrEqual(2);

    // The same form sent again (a double click, a retry) answers the first schedule.
    const again = await call(customer, "POST", "/api/schedules", body);
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json().schedule.id).toBe(res.json().schedule.id);

    const list = await call(customer, "GET", "/api/schedules");
    expect(list.json().items.map((s: { id: string }) => s.id)).toEqual([res.json().schedule.id]);
    const upcoming = await call(customer, "GET", "/api/schedules/upcoming");
    expect(upcoming.json().items[0]).toMatchObject({
      scheduleId: res.json().schedule.id,
      runOn: TOMORROW,
      recipientName: "Sam Lee",
      formattedAmount: "$25.00",
    });
  });

  it("makes one schedule from one form sent five times at once", async () => {
    const customer = await createApprovedCustomer(t.database);
    const body = form(await recipientOf(customer));
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(customer, "POST", "/api/schedules", body)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.json().schedule.id)).size).toBe(1);
    expect(await scheduleCount(customer)).toBe(1);
  });

  it("refuses another customer's recipient, or an id that is not one, as not found", async () => {
    const owner = await createApprovedCustomer(t.database);
    const attacker = await createApprovedCustomer(t.database);
    const ownersRecipient = await recipientOf(owner);
    for (const recipientId of [
      ownersRecipient,
      ownersRecipient.toUpperCase(),
      "1",
      "' or 1=1 --",
      crypto.randomUUID(),
    ]) {
      const res = await call(attacker, "POST", "/api/schedules", form(recipientId));
      expect(res.statusCode, recipientId).toBe(404);
      expect(res.json().message).toBe("Recipient not found");
    }
    expect(await scheduleCount(attacker)).toBe(0);
  });

  it("refuses staff, who never send money", async () => {
    const staff = await createVerifiedUser(t.database, { staffRoles: ["support"] });
    for (const [method, url] of [
      ["GET", "/api/schedules"],
      ["GET", "/api/schedules/upcoming"],
      ["POST", "/api/schedules"],
    ] as const) {
      const res = await call(staff, method, url, method === "POST" ? form(crypto.randomUUID()) : undefined);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ reason: "customers_only", customersOnly: true });
    }
  });

  it("refuses dates in the past, impossible dates, an end before the start and dates past two years", async () => {
    const customer = await createApprovedCustomer(t.database);
    const recipientId = await recipientOf(customer);
    const cases: [Record<string, unknown>, string][] = [
      [{ startOn: addDays(TODAY, -1) }, "The first transfer date cannot be in the past"],
      [{ startOn: "2027-02-30" }, "Enter a date as YYYY-MM-DD"],
      [{ startOn: "tomorrow" }, "Enter a date as YYYY-MM-DD"],
      [{ startOn: TOMORROW, endOn: TODAY }, "The end date must be on or after the first transfer date"],
      [{ startOn: addDays(TODAY, 800) }, "The first transfer date must be within two years"],
      [{ endOn: addDays(TODAY, 800) }, "The end date must be within two years"],
    ];
    for (const [extra, message] of cases) {
      const res = await call(customer, "POST", "/api/schedules", form(recipientId, extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().message).toContain(message);
    }
    // Today itself is allowed: that run is due at once.
    expect(
      (await call(customer, "POST", "/api/schedules", form(recipientId, { startOn: TODAY }))).statusCode,
    ).toBe(201);
  });

  it("refuses amounts that are not positive cents or are over the daily limit", async () => {
    const customer = await createApprovedCustomer(t.database);
    const recipientId = await recipientOf(customer);
    const cases: [unknown, string][] = [
      ["0", "Amount must be greater than $0.00"],
      ["-5", "Amount must be greater than $0.00"],
      ["1.001", "Enter a valid amount"],
      ["abc", "Enter a valid amount"],
      ["2000.01", "A scheduled transfer cannot be more than the daily limit of $2,000.00"],
      ["9".repeat(25), "Enter a valid amount"],
    ];
    for (const [amount, message] of cases) {
      const res = await call(customer, "POST", "/api/schedules", form(recipientId, { amount }));
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(
      (await call(customer, "POST", "/api/schedules", form(recipientId, { amount: "2000.00" }))).statusCode,
    ).toBe(201);
  });

  it("refuses wrong types, unknown fields and huge bodies without writing anything", async () => {
    const customer = await createApprovedCustomer(t.database);
    const recipientId = await recipientOf(customer);
    const bodies: unknown[] = [
      form(recipientId, { amount: { $gt: 0 } }),
      form(recipientId, { cadence: "daily" }),
      form(recipientId, { cadence: ["weekly"] }),
      form(recipientId, { startOn: 20270101 }),
      form(recipientId, { requestKey: "" }),
      form(recipientId, { recipientId: 42 }),
      form(recipientId, { userId: customer.user.id }),
      form(recipientId, { purpose: "x".repeat(201) }),
      form(recipientId, { requestKey: "k".repeat(101) }),
      [form(recipientId)],
      "schedule",
    ];
    for (const body of bodies) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/schedules",
        headers: { cookie: customer.cookie, "content-type": "application/json" },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const huge = await t.app.inject({
      method: "POST",
      url: "/api/schedules",
      headers: { cookie: customer.cookie, "content-type": "application/json" },
      payload: JSON.stringify(form(recipientId, { purpose: "x".repeat(2 * 1024 * 1024) })),
    });
    expect(huge.statusCode).toBe(413);
    expect(await scheduleCount(customer)).toBe(0);
  });

  it("keeps at most 20 open schedules, also when creations race at the cap", async () => {
    const customer = await createApprovedCustomer(t.database);
    const recipientId = await recipientOf(customer);
    for (let i = 0; i < 18; i++) {
      expect((await call(customer, "POST", "/api/schedules", form(recipientId))).statusCode).toBe(201);
    }
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => call(customer, "POST", "/api/schedules", form(recipientId))),
    );
    expect(racing.filter((r) => r.statusCode === 201)).toHaveLength(2);
    const refused = racing.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => r.statusCode)).toEqual([422, 422, 422]);
    expect(refused[0]!.json()).toMatchObject({
      reason: "schedule_limit_reached",
      scheduleLimitReached: true,
    });
    expect(await scheduleCount(customer)).toBe(20);
  });
});

describe("the second factor", () => {
  it("is needed to make a schedule when enrolled, and a fresh step-up to edit one", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { secret } = await enrolTotp(t.app, customer.cookie);
    const recipientId = await recipientOf(customer);

    const bare = await call(customer, "POST", "/api/schedules", form(recipientId));
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({ reason: "step_up_required", stepUpRequired: true });
    const wrong = await call(
      customer,
      "POST",
      "/api/schedules",
      form(recipientId, { secondFactor: { method: "totp", code: "000000" } }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(await scheduleCount(customer)).toBe(0);

    const code = await freshTotpCode(t.database, customer.user.id, secret);
    const proven = await call(
      customer,
      "POST",
      "/api/schedules",
      form(recipientId, { secondFactor: { method: "totp", code } }),
    );
    expect(proven.statusCode, proven.body).toBe(201);
    const id = proven.json().schedule.id;
    // Or this session's fresh step-up, as the web's step-up dialog gives (a passkey proves itself there).
    await stepUpWithTotp(t.app, t.database, { id: customer.user.id, cookie: customer.cookie, secret });
    const afterStepUp = await call(customer, "POST", "/api/schedules", form(recipientId));
    expect(afterStepUp.statusCode, afterStepUp.body).toBe(201);
    await t.database.query("delete from auth_challenges where user_id = $1 and purpose = 'step_up'", [
      customer.user.id,
    ]);

    const edit = await call(customer, "PATCH", `/api/schedules/${id}`, { amount: "30.00" });
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toMatchObject({ reason: "step_up_required" });
    await stepUpWithTotp(t.app, t.database, { id: customer.user.id, cookie: customer.cookie, secret });
    const edited = await call(customer, "PATCH", `/api/schedules/${id}`, {
      amount: "30.00",
      cadence: "weekly",
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      message: "Schedule updated",
      schedule: {
        amountCents: 3000,
        cadence: "weekly",
        upcoming: [TOMORROW, addDays(TOMORROW, 7), addDays(TOMORROW, 14)],
      },
    });
  });

  it("takes a passkey that signed the schedule's own fields, and refuses one signed for other fields", async () => {
    const customer = await createApprovedCustomer(t.database);
    const authenticator = new SoftwareAuthenticator();
    const registration = await call(customer, "POST", "/api/auth/passkeys/registration-options");
    expect(registration.statusCode, registration.body).toBe(200);
    const { response } = authenticator.register(registration.json());
    expect(
      (await call(customer, "POST", "/api/auth/passkeys", { name: "Laptop", response })).statusCode,
    ).toBe(200);
    const recipientId = await recipientOf(customer);
    const sign = async (fields: ReturnType<typeof form>) => {
      const options = await call(customer, "POST", "/api/schedules/passkey-options", fields);
      expect(options.statusCode, options.body).toBe(200);
      const { challengeId, options: publicKey } = options.json();
      return { method: "passkey", challengeId, response: authenticator.assert(publicKey) };
    };

    const fields = form(recipientId, { amount: "40.00", cadence: "weekly" });
    // Signed for $40.00, sent as $400.00: the binding differs, nothing is made.
    const signedForOther = await sign(fields);
    const tampered = await call(customer, "POST", "/api/schedules", {
      ...fields,
      amount: "400.00",
      secondFactor: signedForOther,
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toMatchObject({ reason: "second_factor_invalid" });
    expect(await scheduleCount(customer)).toBe(0);

    const signed = await call(customer, "POST", "/api/schedules", {
      ...fields,
      secondFactor: await sign(fields),
    });
    expect(signed.statusCode, signed.body).toBe(201);
    expect(signed.json().schedule).toMatchObject({ amountCents: 4000, cadence: "weekly" });
  });

  it("refuses a passkey assertion for a customer without a passkey", async () => {
    const customer = await createApprovedCustomer(t.database);
    const res = await call(customer, "POST", "/api/schedules/passkey-options", {
      ...form(await recipientOf(customer)),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: "no_passkey" });
  });
});

describe("changing a schedule", () => {
  it("asks a customer with a second factor for a fresh step-up to pause or resume, as for an edit", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { id } = await created(customer);
    const { secret } = await enrolTotp(t.app, customer.cookie);
    const post = (action: string) => call(customer, "POST", `/api/schedules/${id}/${action}`);
    const status = async () =>
      (
        await t.database.query<{ status: string }>("select status from transfer_schedules where id = $1", [
          id,
        ])
      )[0]!.status;
    const forgetStepUp = () =>
      t.database.query("delete from auth_challenges where user_id = $1 and purpose = 'step_up'", [
        customer.user.id,
      ]);

    const bare = await post("pause");
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({ reason: "step_up_required", stepUpRequired: true });
    expect(await status()).toBe("active");
    await stepUpWithTotp(t.app, t.database, { id: customer.user.id, cookie: customer.cookie, secret });
    const paused = await post("pause");
    expect(paused.statusCode, paused.body).toBe(200);
    expect(await status()).toBe("paused");

    await forgetStepUp();
    const resumeBare = await post("resume");
    expect(resumeBare.statusCode).toBe(403);
    expect(resumeBare.json()).toMatchObject({ reason: "step_up_required" });
    expect(await status()).toBe("paused");
    await stepUpWithTotp(t.app, t.database, { id: customer.user.id, cookie: customer.cookie, secret });
    expect((await post("resume")).statusCode).toBe(200);
    expect(await status()).toBe("active");

    // Cancelling only stops money leaving: it needs no proof.
    await forgetStepUp();
    expect((await post("cancel")).statusCode).toBe(200);
  });

  it("pauses, resumes and cancels, each only from the state it changes", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { id } = await created(customer);
    const post = (action: string) => call(customer, "POST", `/api/schedules/${id}/${action}`);

    expect((await post("resume")).statusCode).toBe(409);
    const paused = await post("pause");
    expect(paused.json()).toMatchObject({
      message: "Schedule paused",
      schedule: { status: "paused", upcoming: [] },
    });
    expect((await post("pause")).json()).toMatchObject({
      reason: "schedule_state",
      scheduleStateConflict: true,
    });
    const resumed = await post("resume");
    expect(resumed.json()).toMatchObject({ message: "Schedule resumed", schedule: { status: "active" } });
    expect(resumed.json().schedule.upcoming[0]).toBe(TOMORROW);
    const cancelled = await post("cancel");
    expect(cancelled.json()).toMatchObject({
      message: "Schedule cancelled",
      schedule: { status: "cancelled", upcoming: [] },
    });
    for (const action of ["pause", "resume", "cancel"]) expect((await post(action)).statusCode).toBe(409);
    const edit = await call(customer, "PATCH", `/api/schedules/${id}`, { amount: "1.00" });
    expect(edit.statusCode).toBe(409);
    expect((await call(customer, "GET", "/api/schedules/upcoming")).json().items).toEqual([]);
  });

  it("answers another customer's schedule ids as not found and changes nothing", async () => {
    const owner = await createApprovedCustomer(t.database);
    const attacker = await createApprovedCustomer(t.database);
    const { id } = await created(owner);
    for (const target of [id, id.toUpperCase(), "not-a-uuid", crypto.randomUUID()]) {
      for (const action of ["pause", "resume", "cancel"]) {
        const res = await call(attacker, "POST", `/api/schedules/${encodeURIComponent(target)}/${action}`);
        expect(res.statusCode, `${action} ${target}`).toBe(404);
        expect(res.json().message).toBe("Schedule not found");
      }
      const edit = await call(attacker, "PATCH", `/api/schedules/${encodeURIComponent(target)}`, {
        amount: "1.00",
      });
      expect(edit.statusCode).toBe(404);
    }
    expect((await call(attacker, "GET", "/api/schedules")).json().items).toEqual([]);
    const [row] = (await call(owner, "GET", "/api/schedules")).json().items;
    expect(row).toMatchObject({ id, status: "active", amountCents: 2500 });
  });

  it("refuses edits to a past start, an end before the start, and an empty edit", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { id } = await created(customer);
    const cases: [Record<string, unknown>, number][] = [
      [{ startOn: addDays(TODAY, -3) }, 400],
      [{ endOn: TODAY }, 400],
      [{ amount: "2000.01" }, 400],
      [{}, 400],
      [{ status: "active" }, 400],
      [{ recipientId: crypto.randomUUID() }, 400],
    ];
    for (const [body, status] of cases) {
      expect(
        (await call(customer, "PATCH", `/api/schedules/${id}`, body)).statusCode,
        JSON.stringify(body),
      ).toBe(status);
    }
    const moved = await call(customer, "PATCH", `/api/schedules/${id}`, {
      startOn: addDays(TODAY, 3),
      endOn: null,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().schedule.upcoming[0]).toBe(addDays(TODAY, 3));
  });
});
