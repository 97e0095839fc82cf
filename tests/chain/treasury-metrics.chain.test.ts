import { eq } from "drizzle-orm";
import { getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DepositInfo } from "@/contract/settlement";
import { payouts, treasuryMovements } from "@/server/db/schema";
import { chainClient } from "@/server/features/settlement/chain-config";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { watchDepositsOnce } from "@/server/features/settlement/deposit-watcher";
import { runPayoutPass } from "@/server/features/settlement/payout-worker";
import { runTreasuryPass } from "@/server/features/settlement/treasury-worker";
import { ANVIL_KEYS, chainEnv, expectReconciled, setUpTestChain } from "@/tests/support/anvil";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerClean,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser } from "@/tests/support/users";

// The treasury's gauges on /metrics (decision 060) read with real figures: a payout completed in the last day
// (the forecast's outflow), a credited deposit waiting for its sweep, a sweep whose worker died after signing
// it (stuck), then swept. Each scrape is compared with the chain's own balance and the database.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet).address;
const payer = privateKeyToAccount(ANVIL_KEYS.payer).address;

describe.skipIf(!process.env.DATABASE_URL)("the treasury's gauges on /metrics", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => ({ ...chainEnv(chain, 3, true), SWEEP_MIN_USDC: "1.00", SWEEP_MIN_AGE: "0" }));
  const config = () => t.app.deps.config.chain!;
  const hotUsdc = () =>
    chain.publicClient.readContract({
      address: chain.token,
      abi: pillarUsdAbi,
      functionName: "balanceOf",
      args: [hot],
    });
  /** The gauge's value in the scrape, or null when it has no sample. */
  const gauge = async (name: string) => {
    const res = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(res.statusCode).toBe(200);
    const line = res.body.split("\n").find((l) => l.startsWith(`${name} `));
    return line === undefined ? null : Number(line.slice(name.length + 1));
  };
  const gauges = async () => ({
    waiting: await gauge("treasury_sweeps_waiting"),
    stuck: await gauge("treasury_movements_stuck"),
    hoursLeft: await gauge("hot_wallet_hours_left"),
    free: await gauge("hot_wallet_free_usdc"),
  });
  /** What hot_wallet_hours_left must say: the free units at the last day's outflow, rounded down to 0.1 h. */
  const hoursAt = (free: bigint, lastDay: bigint) =>
    Math.floor((Number(free) * 24 * 10) / Number(lastDay)) / 10;

  beforeAll(async () => {
    await chain.mint(hot, 1_000_000_000n); // $1,000
    await chain.mint(payer, 100_000_000n);
  });
  afterEach(async () => {
    await expectLedgerClean(t.database);
    await expectReconciled(chain, t.database, config());
  });

  it("reports sweeps waiting, a stuck sweep, the free USDC and the hours left, with real values", async () => {
    // Before any payout there is no outflow to forecast from: no hours-left sample, the rest at their values.
    expect(await gauges()).toEqual({ waiting: 0, stuck: 0, hoursLeft: null, free: 1000 });

    // A real payout of $50 completed: the last day's outflow.
    const admin = await createAdminUser(t.database);
    const sender = await createFundedCustomer(t, admin, "500.00");
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const asked = await requestTransfer(t.app, sender, { amount: "50.00", cryptoAddress: to });
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json().transferRequest.id as string;
    const approved = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: admin.cookie },
      payload: { status: "approved" },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    for (let i = 0; i < 6; i += 1) {
      await runPayoutPass(t.database.db, config(), {
        sanctionsThreshold: t.app.deps.config.sanctionsNameThreshold,
      });
      await chain.mine(1);
    }
    const [payout] = await t.database.db.select().from(payouts).where(eq(payouts.transferRequestId, id));
    expect(payout?.status).toBe("completed");
    // What left the hot wallet: the amount less Pillar's fee, which stays in the bank.
    const outflow = BigInt(payout!.units);
    expect(outflow > 0n && outflow <= 50_000_000n).toBe(true);

    // A credited $40 deposit to a CREATE2 address: one address waiting for its sweep.
    const customer = await createApprovedCustomer(t.database);
    const res = await t.app.inject({
      method: "GET",
      url: "/api/deposits",
      headers: { cookie: customer.cookie },
    });
    const address = getAddress((res.json() as Extract<DepositInfo, { mode: "chain" }>).address);
    await chain.send(ANVIL_KEYS.payer, address, 40_000_000n);
    await chain.mine(config().confirmations);
    await watchDepositsOnce(t.database.db, config(), chainClient(config()));
    const held = await hotUsdc();
    expect(held).toBe(1_000_000_000n - outflow);
    expect(await gauges()).toEqual({
      waiting: 1,
      stuck: 0,
      hoursLeft: hoursAt(held, outflow),
      free: Number(held) / 1e6,
    });

    // The sweep is queued and signed, and its worker dies before the broadcast: signed, never sent. Once it
    // is older than PAYOUT_REBROADCAST_AFTER, it is stuck.
    await expect(
      runTreasuryPass(t.database.db, config(), {
        at: (step) => {
          if (step === "after_sign") throw new Error("the worker died after signing");
        },
      }),
    ).rejects.toThrow("the worker died after signing");
    const [sweep] = await t.database.db
      .select()
      .from(treasuryMovements)
      .where(eq(treasuryMovements.fromAddress, address.toLowerCase()));
    expect(sweep).toMatchObject({ kind: "sweep", status: "signed" });
    expect(await gauges()).toMatchObject({ waiting: 1, stuck: 0 });
    await t.database.query(
      "update treasury_movements set signed_at = signed_at - $2::interval where id = $1",
      [sweep!.id, `${config().payoutRebroadcastAfterMs + 1000} milliseconds`],
    );
    expect(await gauges()).toEqual({
      waiting: 1,
      stuck: 1,
      hoursLeft: hoursAt(held, outflow),
      free: Number(held) / 1e6,
    });

    // The next passes send the same bytes and complete it: nothing waits, nothing is stuck, the hot wallet has
    // the $40 more and lasts longer.
    for (let i = 0; i < 6; i += 1) {
      await runTreasuryPass(t.database.db, config());
      await chain.mine(1);
    }
    const [done] = await t.database.db
      .select()
      .from(treasuryMovements)
      .where(eq(treasuryMovements.id, sweep!.id));
    expect(done).toMatchObject({ status: "completed", minedUnits: "40000000" });
    expect(await hotUsdc()).toBe(held + 40_000_000n);
    expect(await gauges()).toEqual({
      waiting: 0,
      stuck: 0,
      hoursLeft: hoursAt(held + 40_000_000n, outflow),
      free: Number(held + 40_000_000n) / 1e6,
    });
  });
});
