import { describe, expect, it } from "vitest";
import { createApprovedCustomer, expectLedgerClean } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);

const asAdmin = (method: "POST" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: admin.cookie }, ...(payload ? { payload } : {}) });

describe("deleting a customer while money arrives for them", () => {
  it.each([
    [
      "a completed incoming payment",
      (id: string) =>
        asAdmin("POST", "/api/admin/incoming-payments", { userId: id, amount: "25.00", status: "completed" }),
    ],
    [
      "a pending incoming payment",
      (id: string) => asAdmin("POST", "/api/admin/incoming-payments", { userId: id, amount: "25.00" }),
    ],
    [
      "an admin credit",
      (id: string) =>
        asAdmin("POST", "/api/admin/transactions", {
          userId: id,
          type: "credit",
          amount: "25.00",
          description: "Race",
        }),
    ],
  ])(
    "lets exactly one of the deletion and %s win, with a clear 4xx for the other and never a 500",
    async (_, pay) => {
      for (let round = 0; round < 8; round++) {
        const customer = await createApprovedCustomer(t.database);
        const [deleted, paid] = await Promise.all([
          asAdmin("DELETE", `/api/admin/users/${customer.user.id}`),
          pay(customer.user.id),
        ]);
        const statuses = [deleted.statusCode, paid.statusCode];
        expect(
          statuses.every((s) => s < 500),
          `${deleted.body} | ${paid.body}`,
        ).toBe(true);
        if (deleted.statusCode === 200) {
          expect(paid.statusCode, paid.body).toBe(404);
          expect(paid.json().message).toBe("User not found");
        } else {
          expect(deleted.statusCode, deleted.body).toBe(409);
          expect(paid.statusCode, paid.body).toBe(201);
        }
      }
      await expectLedgerClean(t.database);
    },
  );
});
