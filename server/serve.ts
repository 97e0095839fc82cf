import { setFlagsFromString } from "node:v8";
import { buildApp } from "@/server/app";
import { ConfigError, developmentBanner, loadConfig } from "@/server/config";
import { createDatabase } from "@/server/db/client";
import { DatabaseInUseError } from "@/server/db/embedded-lock";
import { MigrationChangedError } from "@/server/db/migrate";
import { verifyChain } from "@/server/features/settlement/chain-config";

/**
 * The old generation may grow to 1.15× what the last full GC kept before the next one, instead of V8's
 * default (up to 4× when GC looks cheap). Under sustained load the default let the heap hold 60–110 MiB
 * of garbage after the transfer runs, so RSS depended on when the last full GC happened; at 1.15× the
 * bench's peak RSS fell from 239–267 to 193–195 MiB (1.3×: 190–202) with no throughput cost we could
 * measure (bench/HISTORY.md, "one call per hot wallet, heap growth"). V8 reads the flag at every GC, so
 * setting it at start is enough.
 */
const HEAP_GROWING_PERCENT = 15;

async function main() {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (config.chain) {
    // The node must agree with the configuration before anything is served: a wrong CHAIN_ID or a contract
    // without code would otherwise show customers an address on the wrong chain.
    const problems = await verifyChain(config.chain);
    if (problems.length > 0) {
      console.error(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
      process.exit(1);
    }
  }

  const database = await createDatabase(config);
  await database.migrate();
  // Every background loop starts in the app's jobs room (server/jobs/loops.ts); a serving process also runs
  // housekeeping and, in chain settlement, the chain's loops.
  const app = await buildApp({ config, database }, { jobs: { serving: true } });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down: no new connections, finishing in-flight requests");
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      // Stops every loop (waiting for a running pass) and the LISTEN hub before the database closes.
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, "error during shutdown");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { node: process.version },
    `Pillar is serving http://${config.host}:${config.port} (database: ${database.kind}${config.databaseUrl ? "" : ` in ${config.dataDir}/pg`}) on Node ${process.version}`,
  );
  const banner = developmentBanner(config);
  if (banner) app.log.info(banner);
}

main().catch((err) => {
  // Another process holds the embedded database, or an applied migration changed: one line says which and
  // what to do, without a stack trace.
  const plain = err instanceof DatabaseInUseError || err instanceof MigrationChangedError;
  console.error(plain ? err.message : err);
  process.exit(1);
});
