// The Node flags the compiled server runs with, wherever it runs: `npm start`, the bench and the Dockerfile's CMD
// (scripts/server-node-flags.test.ts checks that the Dockerfile says the same).
//
// --max-semi-space-size=16: V8 12+ (Node 22, 24) sizes the young generation's semi-spaces from the heap limit, up
// to 64 MiB each where Node 20 kept 16 MiB; under the bench's load the server's RSS went from ~195 to ~350 MiB on
// Node 24 with no throughput to show for it. At 16 MiB it stayed at ~185-225 MiB at the same or better req/s
// (bench/HISTORY.md, "Node 24 LTS"). It must be a command-line flag: the heap exists before any code could
// set it.
export const SERVER_MEMORY_FLAGS = ["--max-semi-space-size=16"];
export const SERVER_NODE_FLAGS = [...SERVER_MEMORY_FLAGS];
