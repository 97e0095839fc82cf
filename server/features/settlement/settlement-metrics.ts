import type { FastifyInstance } from "fastify";
import { Gauge, type Registry } from "prom-client";
import { type HealthRow, readSettlementHealth } from "@/server/features/settlement/settlement-health";

/**
 * The settlement gauges on /metrics (decision 058), all from one query per scrape (readSettlementHealth): how
 * long the oldest pending deposit, unsent payout and stuck payout have waited, the hot wallet's USDC and gas as
 * the payout worker last read them, payouts paused (fee ceiling, nonce used outside Pillar) and nonce alerts.
 * Nothing here asks the node: a scrape stays cheap and answers while the node is down.
 */
export function registerSettlementMetrics(registry: Registry, app: FastifyInstance) {
  const chain = app.deps.config.chain;
  if (!chain) return;
  const { db } = app.deps.database;
  // A scrape collects every gauge at once: those that start while the query runs share it, and the next
  // scrape asks again.
  let inFlight: Promise<HealthRow | null> | null = null;
  const health = () => {
    inFlight ??= readSettlementHealth(db, chain)
      .catch((err) => {
        app.log.warn({ err }, "metrics: could not read the settlement's health");
        return null;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
  const gauge = (name: string, help: string, read: (row: HealthRow) => number | null) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.reset();
        const row = await health();
        const value = row ? read(row) : null;
        if (value !== null) this.set(value);
      },
    });
  gauge(
    "deposit_oldest_pending_seconds",
    "Seconds the oldest pending (not yet credited) deposit has waited; 0 when none",
    (r) => r.oldest_pending_deposit ?? 0,
  );
  gauge(
    "payout_oldest_unsent_seconds",
    "Seconds the oldest approved payout not yet sent (queued or signed) has waited; 0 when none",
    (r) => r.oldest_unsent_payout ?? 0,
  );
  gauge(
    "payout_oldest_stuck_seconds",
    "Seconds since the oldest payout sent and not yet mined was first signed; 0 when none",
    (r) => r.oldest_stuck_payout ?? 0,
  );
  gauge("hot_wallet_usdc", "The hot wallet's USDC in dollars, as the payout worker last read it", (r) =>
    r.usdc_units === null ? null : Number(BigInt(r.usdc_units)) / 1e6,
  );
  gauge(
    "hot_wallet_gas",
    "The hot wallet's native coin for gas (ether), as the payout worker last read it",
    (r) => (r.gas_wei === null ? null : Number(BigInt(r.gas_wei) / 1_000_000_000n) / 1e9),
  );
  gauge(
    "hot_wallet_observed_seconds",
    "Unix time the payout worker last read the hot wallet; stale means the worker or the node stopped",
    (r) => r.observed_at,
  );
  new Gauge({
    name: "payouts_paused",
    help: "Payouts the worker will not sign or replace: fee_ceiling (the market is above CHAIN_MAX_FEE_GWEI) or nonce_used_outside (waits for staff): an alert when above 0",
    labelNames: ["reason"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const row = await health();
      if (!row) return;
      this.set({ reason: "fee_ceiling" }, row.paused_fee_ceiling);
      this.set({ reason: "nonce_used_outside" }, row.paused_nonce_used_outside);
    },
  });
  new Gauge({
    name: "hot_wallet_nonce_alert",
    help: "1 while the hot wallet's nonces show a gap (no transaction of Pillar's holds a nonce below open payouts) or a nonce used by a transaction Pillar did not sign",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const row = await health();
      if (!row) return;
      this.set({ kind: "gap" }, row.nonce_alert === "gap" ? 1 : 0);
      this.set({ kind: "used_outside" }, row.nonce_alert === "used_outside" ? 1 : 0);
    },
  });
}
