import { describe, expect, it } from "vitest";
import { SETTLEMENT_MESSAGES } from "@/contract/settlement";
import { depositAddresses } from "@/server/db/schema";
import { createApprovedCustomer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser } from "@/tests/support/users";

// Manual settlement (no CHAIN_RPC_URL): the Add money page says so and no address is handed out. Chain mode
// is tested on a real node in tests/chain/deposits.chain.test.ts.
const t = setUpTestApp();
const admin = setUpAdminUser(t);

describe("GET /api/deposits without a chain", () => {
  it("answers manual mode and writes no address", async () => {
    const customer = await createApprovedCustomer(t.database);
    const res = await t.app.inject({
      method: "GET",
      url: "/api/deposits",
      headers: { cookie: customer.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ mode: "manual", message: SETTLEMENT_MESSAGES.manualOnly });
    expect(await t.database.db.select().from(depositAddresses)).toEqual([]);
  });

  it("refuses staff and strangers", async () => {
    const staff = await t.app.inject({
      method: "GET",
      url: "/api/deposits",
      headers: { cookie: admin.cookie },
    });
    expect(staff.statusCode).toBe(403);
    expect(staff.json()).toMatchObject({
      message: SETTLEMENT_MESSAGES.staffCannotDeposit,
      customersOnly: true,
    });
    expect((await t.app.inject({ method: "GET", url: "/api/deposits" })).statusCode).toBe(401);
  });
});
