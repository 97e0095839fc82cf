import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { apiWorkers, e2eWorkers } from "./tests/support/workers";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    setupFiles: ["tests/support/fail-on-console-error.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{contract,server,web,scripts}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.api.test.ts", "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["{server,tests}/**/*.api.test.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
          // Files share a worker's module graph instead of importing the whole server again each (a third of
          // the layer's time went to imports): every file builds its own app on its own database, and what the
          // server remembers lives on the app (its caches are keyed by random ids and hashes).
          isolate: false,
          maxWorkers: apiWorkers(),
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.e2e.test.ts"],
          globalSetup: ["tests/e2e/global-setup.ts"],
          // One server per worker (tests/e2e/global-setup.ts): E2E_WORKERS files at a time, each against its own
          // server and database, so the journeys that wait (an authenticator's next 30-second step, a 5-second
          // poll) overlap instead of adding up.
          maxWorkers: e2eWorkers(),
          // A page under a loaded CI machine can take seconds to settle; expect.poll's default gives up after 1 s.
          expect: { poll: { timeout: 15_000 } },
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Migrations under load and the hot queries' plans on a seeded PostgreSQL (tests/online): one file at
          // a time, the seeding takes minutes at the 100 k step.
          name: "online",
          include: ["tests/online/**/*.online.test.ts"],
          fileParallelism: false,
          testTimeout: 1_800_000,
          hookTimeout: 1_800_000,
        },
      },
      {
        extends: true,
        test: {
          // Real processes against real PostgreSQL: one file at a time, generous time for a loaded machine.
          name: "faults",
          include: ["tests/faults/**/*.faults.test.ts"],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Real anvil nodes and PostgreSQL (npm run test:chain): the deposit watcher, reorgs and kills.
          name: "chain",
          include: ["tests/chain/**/*.chain.test.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Three app processes behind HAProxy, PostgreSQL and Redis (npm run test:cluster): one file at a time.
          name: "cluster",
          include: ["tests/cluster/**/*.cluster.test.ts"],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          // A Patroni cluster, HAProxy and three app processes, faults under load (npm run test:failover).
          name: "failover",
          include: ["tests/failover/**/*.failover.test.ts"],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
