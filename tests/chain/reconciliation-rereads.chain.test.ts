import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DepositInfo, ReconciliationDetail, ReconciliationItem } from "@/contract/settlement";
import { chainClient } from "@/server/features/settlement/chain-config";
import { watchDepositsOnce } from "@/server/features/settlement/deposit-watcher";
import { runReconciliation } from "@/server/features/settlement/reconciliation";
import { findWallet } from "@/server/lib/ledger";
import {
  ANVIL_KEYS,
  chainEnv,
  expectReconciled,
  type KnownDifference,
  setUpTestChain,
} from "@/tests/support/anvil";
import { createApprovedCustomer, expectLedgerClean } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// Decision 057 (reads again, stranger money), on a real anvil and real PostgreSQL: every run reads
// again a window deeper than any reorg, compares the deposit addresses' balances with the ledger, reports USDC
// from outside in the hot wallet, and reports each difference once, with the block it was first seen at.
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet);
const payer = privateKeyToAccount(ANVIL_KEYS.payer);

describe.skipIf(!process.env.DATABASE_URL)(
  "Reconciliation that reads again and reports once, on anvil",
  () => {
    const chain = setUpTestChain();
    const t = setUpTestApp(() => chainEnv(chain));
    const config = () => t.app.deps.config.chain!;
    let finance: SignedInUser;
    // What a test did on purpose, which every later run of the file still finds (and nothing else).
    const known: KnownDifference[] = [];

    beforeAll(async () => {
      finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
      await chain.mint(hot.address, 1_000_000_000n); // $1,000, minted: Pillar's own funding
    });
    afterEach(async () => {
      await expectLedgerClean(t.database);
      await expectReconciled(chain, t.database, config(), known);
    });

    const run = async () => {
      const result = await runReconciliation(t.database.db, config(), { trigger: "staff" });
      const res = await t.app.inject({
        method: "GET",
        url: `/api/admin/settlement/reconciliations/${result!.reportId}`,
        headers: { cookie: finance.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ReconciliationDetail;
    };
    const differences = (d: ReconciliationDetail) => d.items.filter((i) => i.outcome === "difference");
    const pass = () => watchDepositsOnce(t.database.db, config(), chainClient(config()));

    /** A customer with a deposit address and a credited deposit of `units` to it. */
    async function creditedDeposit(units: bigint) {
      const customer = await createApprovedCustomer(t.database);
      const info = await t.app.inject({
        method: "GET",
        url: "/api/deposits",
        headers: { cookie: customer.cookie },
      });
      const { address } = info.json() as Extract<DepositInfo, { mode: "chain" }>;
      await pass();
      const hash = await chain.mint(address as Address, units);
      for (let i = 0; i < 4; i += 1) {
        await chain.mine(1);
        await pass();
      }
      expect((await findWallet(t.database.db, customer.user.id))?.balance).toBe(Number(units / 10_000n));
      return { customer, address: (address as string).toLowerCase(), hash: hash.toLowerCase() as Hex };
    }

    it("reports a credited deposit a reorg took off the chain after a run, once, with its block, and resolves it when it returns", async () => {
      const { address, hash } = await creditedDeposit(15_000_000n);
      const minedAt = Number((await chain.publicClient.getTransactionReceipt({ hash })).blockNumber);
      const raw = (await chain.publicClient.request({
        method: "eth_getRawTransactionByHash" as never,
        params: [hash] as never,
      })) as Hex;
      await chain.mine(3);
      expect((await run()).report.status).toBe("clean");

      // A reorg deeper than the confirmations, after the run read the deposit's block: the transfer is gone.
      await chain.reorg((await chain.blockNumber()) - minedAt + 1);
      await chain.mine(3);
      const found = await run();
      expect(found.report.status).toBe("differences");
      const seenAt = found.report.asOfBlock!;
      expect(differences(found)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            area: "deposits",
            kind: "credited_not_on_chain",
            txHash: hash,
            ledgerUsdc: "15.000000",
            state: "new",
            firstSeenBlock: seenAt,
          }),
          expect.objectContaining({
            area: "deposits",
            kind: "address_balance",
            reference: address,
            chainUsdc: "0.000000",
            ledgerUsdc: "15.000000",
            state: "new",
            firstSeenBlock: seenAt,
          }),
        ]),
      );
      expect(found.report).toMatchObject({ differences: 2, newDifferences: 2 });

      // Two more runs: still open, never new again, still first seen at the same block; kept once.
      for (let i = 0; i < 2; i += 1) {
        await chain.mine(1);
        const again = await run();
        expect(again.report).toMatchObject({ status: "differences", differences: 2, newDifferences: 0 });
        for (const item of differences(again)) {
          expect(item).toMatchObject({ state: "open", firstSeenBlock: seenAt });
        }
      }
      const kept = await t.database.query<{ kind: string; first_seen_block: string }>(
        "select kind, first_seen_block::text from reconciliation_differences where tx_hash = $1 or reference = $2",
        [hash, address],
      );
      expect(kept.map((k) => k.kind).sort()).toEqual(["address_balance", "credited_not_on_chain"]);
      expect(kept.every((k) => Number(k.first_seen_block) === seenAt)).toBe(true);

      // Another reorg mines the transfer again: both differences are resolved, at that run's block.
      await chain.publicClient.request({
        method: "anvil_reorg" as never,
        params: [1, [[raw, 0]]] as never,
      });
      await chain.mine(3);
      const back = await run();
      expect(back.report).toMatchObject({ status: "clean", differences: 0, resolved: 2 });
      const resolved = back.items.filter((i) => i.outcome === "resolved");
      expect(resolved.map((i) => i.kind).sort()).toEqual(["address_balance", "credited_not_on_chain"]);
      for (const item of resolved) {
        expect(item).toMatchObject({
          state: "resolved",
          firstSeenBlock: seenAt,
          resolvedBlock: back.report.asOfBlock,
        });
      }
      expect((await run()).report).toMatchObject({ status: "clean", resolved: 0 });
    });

    it("reports USDC moved out of a deposit address by its key, and the address holding less than its deposits", async () => {
      const { address } = await creditedDeposit(20_000_000n);
      await chain.mine(3);
      expect((await run()).report.status).toBe("clean");

      const [{ index }] = await t.database.query<{ index: number }>(
        "select derivation_index as index from deposit_addresses where address = $1",
        [address],
      );
      await chain.setGas(address as Address, 10n ** 18n);
      const stranger = privateKeyToAccount(generatePrivateKey()).address;
      const moved = (await chain.send(chain.depositKey(index!), stranger, 5_000_000n)).toLowerCase();
      await chain.mine(3);
      const found = await run();
      expect(found.report.status).toBe("differences");
      expect(differences(found)).toEqual([
        expect.objectContaining({
          area: "deposits",
          kind: "deposit_outflow",
          txHash: moved,
          reference: address,
          chainUsdc: "5.000000",
          state: "new",
          firstSeenBlock: found.report.asOfBlock,
        }),
        expect.objectContaining({
          area: "deposits",
          kind: "address_balance",
          reference: address,
          chainUsdc: "15.000000",
          ledgerUsdc: "20.000000",
          state: "new",
        }),
      ]);
      known.push({ kind: "deposit_outflow", txHash: moved, units: 5_000_000n });
    });

    it("reads the balances of hundreds of deposit addresses at the run's block, a hundred per call", async () => {
      // 300 addresses with a recorded dust deposit of nothing each: watched, holding 0 as their deposits say.
      await t.database.query(
        `with fresh as (
         insert into deposit_addresses (address, user_id)
         select '0xdead' || lpad(to_hex(i), 36, '0'), null from generate_series(1, 300) i returning address)
       insert into chain_deposits (chain_id, tx_hash, log_index, block_number, block_hash, from_address, to_address,
                                   units, amount_cents, dust_units, status)
       select $1, '0x' || md5(address) || md5(address), 0, 1, '0x00', '0x00', address, 0, 0, 0, 'below_cent'
       from fresh`,
        [config().chainId],
      );
      const report = await run();
      // Read, not an error; and none of them is a difference (the earlier test's outflow is still open).
      expect(report.report).toMatchObject({ error: null, newDifferences: 0 });
      expect(report.report.status).not.toBe("error");
    });

    it("reports USDC sent to the hot wallet from outside as an unknown inflow, once, and not as a balance difference", async () => {
      await chain.mint(payer.address, 10_000_000n);
      const before = await run();
      const inflow = (await chain.send(ANVIL_KEYS.payer, hot.address, 4_000_000n)).toLowerCase();
      await chain.mine(3);
      const found = await run();
      const fresh = differences(found).filter((i) => i.state === "new");
      expect(fresh).toEqual([
        expect.objectContaining({
          area: "hot_wallet",
          kind: "unknown_inflow",
          txHash: inflow,
          reference: payer.address.toLowerCase(),
          chainUsdc: "4.000000",
          firstSeenBlock: found.report.asOfBlock,
        }),
      ]);
      // The hot wallet's balance accounts for it: no balance difference, now or later.
      expect(
        found.items.some((i: ReconciliationItem) => i.area === "hot_wallet" && i.kind === "balance"),
      ).toBe(false);
      expect(found.report.hotOnChainUsdc).toBe(found.report.hotExpectedUsdc);
      expect(found.report.newDifferences).toBe(1);
      expect(found.report.differences).toBe(before.report.differences + 1);

      await chain.mine(1);
      const again = await run();
      expect(again.report.newDifferences).toBe(0);
      expect(differences(again).find((i) => i.txHash === inflow)).toMatchObject({
        state: "open",
        firstSeenBlock: found.report.asOfBlock,
      });
      expect(again.items.some((i) => i.area === "hot_wallet" && i.kind === "balance")).toBe(false);
      known.push({ kind: "unknown_inflow", txHash: inflow, units: 4_000_000n });
    });
  },
);
