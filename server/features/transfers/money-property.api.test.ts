import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  approveAsSecond,
  createApprovedCustomer,
  ETH_ADDRESS,
  expectLedgerClean,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "1000" });
const admin = setUpAdminUser(t);

type Op =
  | { kind: "credit"; cents: number }
  | { kind: "transfer"; cents: number }
  | {
      kind: "settle";
      pick: number;
      status: "completed" | "failed" | "cancelled" | "processing" | "approved" | "rejected";
    }
  | { kind: "adjust"; cents: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("credit" as const), cents: fc.integer({ min: 1, max: 300_000 }) }),
  fc.record({ kind: fc.constant("transfer" as const), cents: fc.integer({ min: 1, max: 150_000 }) }),
  fc.record({
    kind: fc.constant("settle" as const),
    pick: fc.nat(),
    status: fc.constantFrom("completed", "failed", "cancelled", "processing", "approved", "rejected"),
  }),
  fc.record({ kind: fc.constant("adjust" as const), cents: fc.integer({ min: 0, max: 500_000 }) }),
);

const dollars = (cents: number) => (cents / 100).toFixed(2);

// What the one admin has credited in the last 24 hours, over every run of the property (decision 017).
let makerWindow = 0;

describe("money through the API", () => {
  // 15 runs of up to 10 calls each, every run ending with the ledger check: a minute on a busy CI machine.
  it("never creates, loses or doubles money, whatever the sequence of credits, transfers and settlements", {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const customer = await createApprovedCustomer(t.database);
        const transfers: string[] = [];
        // The model: what the customer's total and held amounts must be after each step.
        let total = 0;
        const held = new Map<string, number>();
        let customerWindow = 0;
        for (const o of ops) {
          if (o.kind === "credit") {
            const res = await t.app.inject({
              method: "POST",
              url: "/api/admin/transactions",
              headers: { cookie: admin.cookie },
              payload: {
                userId: customer.user.id,
                amount: dollars(o.cents),
                description: "Credit",
                reason: "Property test",
              },
            });
            // A credit that takes the maker's or the customer's 24-hour total past APPROVAL_THRESHOLD waits for a
            // second finance member (maker-checker, decision 017); approved, it counts toward both totals.
            const waits = makerWindow + o.cents > 100_000 || customerWindow + o.cents > 100_000;
            makerWindow += o.cents;
            customerWindow += o.cents;
            if (waits) {
              expect(res.statusCode, res.body).toBe(202);
              expect((await approveAsSecond(t, res)).statusCode).toBe(200);
            } else expect(res.statusCode).toBe(201);
            total += o.cents;
          } else if (o.kind === "transfer") {
            const res = await t.app.inject({
              method: "POST",
              url: "/api/transfer/request",
              headers: { cookie: customer.cookie },
              payload: {
                amount: dollars(o.cents),
                recipientName: "R",
                purpose: "Rent",
                paymentMethod: "crypto",
                cryptoAddress: ETH_ADDRESS,
              },
            });
            const heldNow = [...held.values()].reduce((a, b) => a + b, 0);
            if (res.statusCode === 201) {
              const id = res.json().transferRequest.id;
              transfers.push(id);
              held.set(id, o.cents);
            } else {
              expect(res.statusCode).toBe(422);
              expect(o.cents > total - heldNow || res.json().withdrawalLimitExceeded).toBeTruthy();
            }
          } else if (o.kind === "settle" && transfers.length > 0) {
            const id = transfers[o.pick % transfers.length];
            const res = await t.app.inject({
              method: "PUT",
              url: `/api/admin/transfer-requests/${id}`,
              headers: { cookie: admin.cookie },
              payload: { status: o.status },
            });
            if (!held.has(id)) {
              expect(res.statusCode).toBe(409);
            } else if (res.statusCode === 200) {
              const final = res.json().status;
              if (final === "completed") total -= held.get(id)!;
              if (final === "completed" || final === "failed" || final === "cancelled") held.delete(id);
            }
          } else if (o.kind === "adjust") {
            const res = await t.app.inject({
              method: "PUT",
              url: `/api/admin/users/${customer.user.id}/balance`,
              headers: { cookie: admin.cookie },
              payload: { accountBalance: dollars(o.cents), reason: "Property test" },
            });
            const heldNow = [...held.values()].reduce((a, b) => a + b, 0);
            if (o.cents < heldNow) expect(res.statusCode).toBe(409);
            else {
              // Every adjustment waits for a second finance member; an unchanged balance has nothing to adjust.
              if (res.statusCode === 202) expect((await approveAsSecond(t, res)).statusCode).toBe(200);
              else expect(res.statusCode, res.body).toBe(200);
              total = o.cents;
            }
          }
        }
        const summary = (
          await t.app.inject({
            method: "GET",
            url: "/api/account/summary",
            headers: { cookie: customer.cookie },
          })
        ).json();
        const heldNow = [...held.values()].reduce((a, b) => a + b, 0);
        expect(summary.balanceCents).toBe(total);
        expect(summary.pendingCents).toBe(heldNow);
        await expectLedgerClean(t.database);
      }),
      { numRuns: 15 },
    );
  });
});
