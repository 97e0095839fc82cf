import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { vi } from "vitest";
import type { Database } from "@/server/db/client";

type Call = (...args: unknown[]) => unknown;

const textOf = (argument: unknown): string =>
  typeof argument === "string" ? argument : String((argument as { text?: unknown } | undefined)?.text ?? "");

/** Marks the async work `run` starts (and everything it awaits), not a background loop's timer firing meanwhile. */
const counted = new AsyncLocalStorage<true>();

/**
 * The statements `run` sends to the database, counted at the driver. On PostgreSQL: every statement of every pooled
 * connection (the pool hands each to a client's query; a transaction's BEGIN and COMMIT count). On PGlite: its
 * query, exec and transaction calls (a transaction counts once however many statements it runs, so a count of one
 * there still means one statement). Only what `run` causes counts: a consumer's pass whose timer fires meanwhile
 * is the jobs room's, not the request's. (A statement waiting for a busy pool's connection would lose its origin
 * and go uncounted: run this on an idle pool.)
 */
export async function statementsDuring(database: Database, run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const wrap = (target: Record<string, Call>, method: string, label?: string) => {
    const own = target[method]!;
    return vi.spyOn(target, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
      if (counted.getStore()) sent.push(label ?? textOf(args[0]));
      return own.apply(this, args);
    });
  };
  const client = (database.db as unknown as { $client: Record<string, Call> }).$client;
  const spies =
    database.kind === "pg"
      ? [wrap(pg.Client.prototype as unknown as Record<string, Call>, "query")]
      : [wrap(client, "query"), wrap(client, "exec"), wrap(client, "transaction", "(transaction)")];
  try {
    // Awaited inside: a lazy thenable (app.inject's) starts its work only when awaited.
    await counted.run(true, async () => {
      await run();
    });
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return sent;
}
