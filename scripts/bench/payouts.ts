// The payouts scenario of `npm run bench` (BENCH_SCENARIOS=payouts): USDC payouts on anvil with 1-second blocks
// and 3 confirmations. Customers (seeded) request transfers through the app, staff's approval queues them all at
// once, and one payout worker (the production one, its 2-second pass) signs, sends, follows and captures them.
// Prints one JSON line: payouts per minute, approval → completed p50/p95, the reconciliation and ledger check.
// Run by scripts/bench.mjs with `--import tsx` and DATABASE_URL pointing at a scratch database it drops after.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HDKey } from "@scure/bip32";
import { sql } from "drizzle-orm";
import { createPublicClient, createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { z } from "zod";
import { startAnvil } from "@/scripts/anvil.mjs";
import { seed } from "@/scripts/bench/seed.mjs";
import { buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import { createPgDatabase, queryRows } from "@/server/db/client";
import { pillarUsdAbi, pillarUsdBytecode } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { payoutWorkerLoop } from "@/server/features/settlement/payout-worker";
import { runReconciliation } from "@/server/features/settlement/reconciliation";
import { updateTransferStatus } from "@/server/features/transfers/update-transfer-status";
import { verifyLedger } from "@/server/lib/ledger";

const PAYOUTS = Number(process.env.BENCH_PAYOUTS ?? 60);
const TIMEOUT_MS = Number(process.env.BENCH_PAYOUT_TIMEOUT_MS ?? 300_000);
const CONFIRMATIONS = 3;
const DEPLOYER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const HOT_WALLET_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("scripts/bench/payouts.ts needs DATABASE_URL (a scratch database)");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const node = await startAnvil({ blockTime: 1 });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-bench-payouts-"));
const database = createPgDatabase(url, 10);
try {
  await database.migrate();
  const { tokens } = await seed({ url, users: PAYOUTS, transactionsPerUser: 1, sessionUsers: PAYOUTS });

  // The token and a funded hot wallet, as `CHAIN=local npm start` sets them up.
  const chain = { ...foundry, id: node.chainId };
  const transport = http(node.url);
  const publicClient = createPublicClient({ chain, transport });
  const owner = createWalletClient({ chain, transport, account: privateKeyToAccount(DEPLOYER_KEY) });
  const deployed = await owner.deployContract({
    abi: pillarUsdAbi,
    bytecode: pillarUsdBytecode,
    args: [owner.account.address],
  });
  const token = (await publicClient.waitForTransactionReceipt({ hash: deployed, pollingInterval: 200 }))
    .contractAddress!;
  const minted = await owner.writeContract({
    address: token,
    abi: pillarUsdAbi,
    functionName: "mint",
    args: [privateKeyToAccount(HOT_WALLET_KEY).address, 1_000_000_000_000n],
  });
  await publicClient.waitForTransactionReceipt({ hash: minted, pollingInterval: 200 });

  const config = loadConfig({
    ...process.env,
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    DATA_KEY: randomBytes(32).toString("hex"),
    RATE_LIMIT_SCALE: "1000000",
    CHAIN_RPC_URL: node.url,
    CHAIN_ID: String(node.chainId),
    USDC_CONTRACT: token,
    PAYOUT_KEY: HOT_WALLET_KEY,
    DEPOSIT_XPUB: HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'/0").publicExtendedKey,
    CHAIN_CONFIRMATIONS: String(CONFIRMATIONS),
  });
  const chainConfig = config.chain!;
  const app = await buildApp(
    { config, database },
    { logger: false, mailWorker: false, scheduleRunner: false },
  );
  try {
    // Each seeded customer asks for a $10.00 transfer to a fresh address, through the app as the send form does.
    const ids: string[] = [];
    for (const token of tokens) {
      const res = await app.inject({
        method: "POST",
        url: "/api/transfer/request",
        headers: { cookie: `sid=${token}` },
        payload: {
          recipientName: "Bench Payee",
          purpose: "Benchmark payout",
          paymentMethod: "crypto",
          cryptoAddress: privateKeyToAccount(generatePrivateKey()).address,
          amount: "10.00",
        },
      });
      if (res.statusCode !== 201) throw new Error(`transfer request: ${res.statusCode} ${res.body}`);
      ids.push(res.json().transferRequest.id);
    }

    // Staff approve them all at once (the desk's Quick Approve, in chain mode: each payout queued).
    const worker = app.jobs.addLoop(
      payoutWorkerLoop(database.db, chainConfig, app.log, config.sanctionsNameThreshold),
    );
    const started = Date.now();
    for (const id of ids) {
      await updateTransferStatus(
        database.db,
        null,
        id,
        { status: "approved" },
        { chain: { chainId: chainConfig.chainId } },
      );
    }
    let done = 0;
    while (Date.now() - started < TIMEOUT_MS) {
      const [row] = await queryRows(
        database.db,
        sql`select count(*)::int as n from transfer_requests where status in ('completed', 'failed')`,
        z.object({ n: z.number() }),
      );
      done = row!.n;
      if (done >= ids.length) break;
      await sleep(250);
    }
    await worker.stop();

    const rows = await queryRows(
      database.db,
      sql`select r.status, extract(epoch from r.settled_at - p.created_at)::float8 as seconds,
                 p.created_at as approved, r.settled_at as settled
          from payouts p join transfer_requests r on r.id = p.transfer_request_id`,
      z.object({
        status: z.string(),
        seconds: z.number().nullable(),
        approved: z.string(),
        settled: z.string().nullable(),
      }),
    );
    const completed = rows.filter((r) => r.status === "completed");
    const latencies = completed.map((r) => Number(r.seconds)).sort((a, b) => a - b);
    const first = Math.min(...rows.map((r) => new Date(r.approved).getTime()));
    const last = Math.max(...completed.map((r) => new Date(r.settled!).getTime()));
    const minutes = (last - first) / 60_000;

    // Reconciliation once the last capture's block is final, and the ledger invariant.
    const target = Number(await publicClient.getBlockNumber()) + CONFIRMATIONS;
    while (Number(await publicClient.getBlockNumber()) < target) await sleep(250);
    const reconciliation = await runReconciliation(database.db, chainConfig, { trigger: "staff" });
    const ledger = await verifyLedger(database.db);
    console.log(
      JSON.stringify({
        payouts: ids.length,
        completed: completed.length,
        failed: rows.filter((r) => r.status === "failed").length,
        perMinute: minutes > 0 ? completed.length / minutes : null,
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        max: latencies.at(-1) ?? null,
        reconciliation: reconciliation
          ? {
              status: reconciliation.status,
              differences: reconciliation.differences,
              awaiting: reconciliation.awaiting,
            }
          : null,
        ledgerOk: ledger.ok,
      }),
    );
  } finally {
    await app.close();
  }
} finally {
  await database.close();
  await node.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
