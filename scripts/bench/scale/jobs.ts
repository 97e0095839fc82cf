// The jobs `npm run bench:scale` times at each step, run here in-process against the scratch database while the app
// is stopped (so a jobs room elsewhere neither shares nor slows the work). A new job is one row of JOBS.
import { DEFAULT_SANCTIONS_NAME_THRESHOLD } from "@/contract/compliance";
import { WHALE_ADDRESSES } from "@/scripts/bench/scale/seed";
import type { Database } from "@/server/db/client";
import { loadSanctionsList } from "@/server/features/compliance/load-sanctions-list";
import { queueRescreen, RESCREEN_BATCH, rescreenPass } from "@/server/features/compliance/rescreen";
import { loadMonitoringInputs } from "@/server/features/monitoring/load-monitoring-input";
import { monitoringConfig } from "@/server/features/monitoring/monitoring-config";
import { previousMonth, runStatementsToEnd } from "@/server/features/statements/statement-run";
import { sweepExpired } from "@/server/lib/housekeeping";
import { verifyLedger } from "@/server/lib/ledger";
import { realListFiles } from "@/tests/support/real-ofac-list";

export interface JobResult {
  /** Wall time of the whole job (or its extrapolation, said in `note`). */
  seconds: number | null;
  /** Per-item latencies where the job is per item (monitoring per transfer). */
  p50?: number;
  p99?: number;
  note: string;
  ok: boolean;
}

export interface JobOptions {
  /** The re-screen stops after this many seconds and extrapolates from its rate. */
  rescreenBudgetSeconds: number;
  monitoringSamples: number;
}

export interface Job {
  name: string;
  /** Run before the app starts: the app's own loop would otherwise do this work during the measurement. */
  beforeApp?: boolean;
  run(database: Database, options: JobOptions): Promise<JobResult>;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const timed = async <T>(fn: () => Promise<T>) => {
  const start = performance.now();
  const value = await fn();
  return { value, seconds: (performance.now() - start) / 1000 };
};

export const JOBS: Job[] = [
  {
    name: "ledger:verify (whole ledger)",
    async run(database) {
      const { value, seconds } = await timed(() => verifyLedger(database.db));
      return {
        seconds,
        ok: value.ok,
        note: value.ok
          ? `${value.entries.toLocaleString("en-US")} entries, no drift`
          : `${value.problems.length} problems: ${value.problems.slice(0, 2).join("; ")}`,
      };
    },
  },
  {
    // The month-end run for last month, all over again each step (its stored rows deleted first).
    name: "month-end statement run (every customer)",
    async run(database) {
      const month = previousMonth();
      await database.query("delete from statements where month = $1", [month]);
      await database.query("delete from statement_runs where month = $1", [month]);
      const { value, seconds } = await timed(() => runStatementsToEnd(database.db, month));
      return {
        seconds,
        ok: value.status === "done",
        note: `${month}: ${value.done.toLocaleString("en-US")} customers, ${Math.round(value.done / seconds).toLocaleString("en-US")}/s`,
      };
    },
  },
  {
    name: "housekeeping sweep",
    beforeApp: true,
    async run(database) {
      const { value, seconds } = await timed(() => sweepExpired(database.db));
      const deleted = Object.entries(value)
        .filter(([, v]) => typeof v === "number" && v > 0)
        .map(([k, v]) => `${k} ${Number(v).toLocaleString("en-US")}`)
        .join(", ");
      return { seconds, ok: true, note: deleted ? `deleted ${deleted}` : "nothing due" };
    },
  },
  {
    name: "monitoring reads per transfer (half to whale addresses)",
    async run(database, options) {
      const rows = await database.query<{
        id: string;
        user_id: string;
        amount: string;
        crypto_address: string;
      }>(
        `select id, user_id, amount::text, crypto_address from transfer_requests
         where user_id is not null order by created_at desc limit $1`,
        [options.monitoringSamples],
      );
      const latencies: number[] = [];
      for (const [i, r] of rows.entries()) {
        const address =
          i % 2 === 0 ? WHALE_ADDRESSES[i % WHALE_ADDRESSES.length]! : r.crypto_address.toLowerCase();
        const start = performance.now();
        await loadMonitoringInputs(
          database.db,
          [
            {
              userId: r.user_id,
              event: { id: r.id, kind: "transfer", at: Date.now(), amountCents: Number(r.amount), address },
            },
          ],
          monitoringConfig(),
        );
        latencies.push(performance.now() - start);
      }
      latencies.sort((a, b) => a - b);
      return {
        seconds: latencies.reduce((a, b) => a + b, 0) / 1000,
        p50: quantile(latencies, 0.5),
        p99: quantile(latencies, 0.99),
        ok: rows.length > 0,
        note: `${rows.length} transfers, the rules' inputs loaded one transfer at a time`,
      };
    },
  },
  {
    name: "sanctions re-screen of every customer",
    async run(database, options) {
      const [current] = await database.query<{ id: string }>(
        "select id from sanctions_lists order by version desc limit 1",
      );
      let listId: string;
      if (!current) {
        const list = await loadSanctionsList(database.db, realListFiles(), {
          actorId: null,
          actorRole: null,
          source: "cli",
        });
        listId = list.id;
      } else {
        // The list is already loaded (an earlier step): its run is queued again from the first customer.
        listId = current.id;
        await database.query("delete from rescreen_runs where list_id = $1", [listId]);
        await queueRescreen(database.db, listId);
      }
      const start = performance.now();
      let screened = 0;
      let finished = false;
      while ((performance.now() - start) / 1000 < options.rescreenBudgetSeconds) {
        const { done, more } = await rescreenPass(database.db, DEFAULT_SANCTIONS_NAME_THRESHOLD);
        screened += done;
        if (!more && done === 0) {
          finished = true;
          break;
        }
      }
      const seconds = (performance.now() - start) / 1000;
      const [{ total } = { total: 0 }] = await database.query<{ total: number }>(
        "select coalesce(total, 0)::int as total from rescreen_runs where list_id = $1",
        [listId],
      );
      if (!finished) {
        // Stopped by the budget: the rest is left undone (the next app start would otherwise work it during the
        // next step's measurement).
        await database.query("update rescreen_runs set status = 'superseded' where list_id = $1", [listId]);
      }
      const rate = screened / seconds;
      return {
        seconds: finished ? seconds : total / rate,
        ok: screened > 0,
        note: finished
          ? `${screened.toLocaleString("en-US")} customers, ${Math.round(rate)}/s (batches of ${RESCREEN_BATCH})`
          : `stopped after ${seconds.toFixed(0)} s at ${screened.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} customers (${Math.round(rate)}/s); the time is ${total.toLocaleString("en-US")} ÷ that rate`,
      };
    },
  },
  {
    name: "reconciliation against the chain",
    async run() {
      return {
        seconds: null,
        ok: true,
        note: "not run: it reads the chain (an RPC node and the hot wallet); see npm run test:chain",
      };
    },
  },
];
