import type { FastifyInstance } from "fastify";
import { Gauge, type Registry } from "prom-client";
import { chainClient } from "@/server/features/settlement/chain-config";
import { hotWalletUsdc, treasuryFigures } from "@/server/features/settlement/treasury-overview";

/**
 * A gauge with no sample while its figure is unknown (collect sets NaN). prom-client's label-less gauge always
 * reports one, 0 after reset(): with no payout in the last day (nothing to forecast from) or no answer from the
 * node, hot_wallet_hours_left and hot_wallet_free_usdc read 0 and fire the "below the floor" alerts.
 */
class UnknownableGauge extends Gauge {
  override async get() {
    const metric = await super.get();
    return { ...metric, values: metric.values.filter((v) => !Number.isNaN(v.value)) };
  }
}

/**
 * The treasury's gauges on /metrics (decision 060): sweeps waiting, movements stuck (an alert above 0), and the
 * hours the hot wallet lasts at the last day's payout outflow (an alert below HOT_WALLET_FORECAST_HOURS; absent
 * with no outflow or no answer from the node). One scrape reads the figures once for the three.
 */
export function registerTreasuryMetrics(app: FastifyInstance, registry: Registry) {
  const chain = app.deps.config.chain;
  if (!chain) return;
  const client = chainClient(chain);
  let pending: Promise<Awaited<ReturnType<typeof treasuryFigures>> | null> | null = null;
  const figures = () => {
    pending ??= (async () => {
      try {
        return await treasuryFigures(app.deps.database.db, chain, await hotWalletUsdc(chain, client));
      } catch (err) {
        app.log.warn({ err }, "metrics: could not read the treasury figures");
        return null;
      } finally {
        setTimeout(() => {
          pending = null;
        }, 0);
      }
    })();
    return pending;
  };
  new Gauge({
    name: "treasury_sweeps_waiting",
    help: "CREATE2 deposit addresses holding credited USDC not swept yet (decision 060)",
    registers: [registry],
    async collect() {
      this.reset();
      const f = await figures();
      if (f) this.set(f.sweepsWaiting);
    },
  });
  new Gauge({
    name: "treasury_movements_stuck",
    help: "Treasury movements (sweeps, to cold, returns) waiting or not mined in time: an alert when above 0",
    registers: [registry],
    async collect() {
      this.reset();
      const f = await figures();
      if (f) this.set(f.stuck);
    },
  });
  new UnknownableGauge({
    name: "hot_wallet_hours_left",
    help: `Hours the hot wallet's free USDC lasts at the last day's payout outflow: an alert below ${chain.treasury.forecastWarnHours} (HOT_WALLET_FORECAST_HOURS)`,
    registers: [registry],
    async collect() {
      this.reset();
      const f = await figures();
      this.set(f?.hoursLeft ?? Number.NaN);
    },
  });
  new UnknownableGauge({
    name: "hot_wallet_free_usdc",
    help: "The hot wallet's USDC less payouts and movements signed and not yet mined, in dollars",
    registers: [registry],
    async collect() {
      this.reset();
      const f = await figures();
      this.set(f?.available === null || f?.available === undefined ? Number.NaN : Number(f.available) / 1e6);
    },
  });
}
