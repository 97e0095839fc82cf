import pg from "pg";
import { vi } from "vitest";
import type { Database } from "@/server/db/client";

type Call = (...args: unknown[]) => unknown;

const textOf = (argument: unknown): string =>
  typeof argument === "string" ? argument : String((argument as { text?: unknown } | undefined)?.text ?? "");

/**
 * The statements this process sends to the database while `run` runs, counted at the driver. On PostgreSQL: every
 * statement of every pooled connection (the pool hands each to a client's query; a transaction's BEGIN and COMMIT
 * count). On PGlite: its query, exec and transaction calls (a transaction counts once however many statements it
 * runs, so a count of one there still means one statement). Background work that sends statements meanwhile (a
 * consumer woken by the commit) is counted too: a test keeps it asleep.
 */
export async function statementsDuring(database: Database, run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const wrap = (target: Record<string, Call>, method: string, label?: string) => {
    const own = target[method]!;
    return vi.spyOn(target, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
      sent.push(label ?? textOf(args[0]));
      return own.apply(this, args);
    });
  };
  const client = (database.db as unknown as { $client: Record<string, Call> }).$client;
  const spies =
    database.kind === "pg"
      ? [wrap(pg.Client.prototype as unknown as Record<string, Call>, "query")]
      : [wrap(client, "query"), wrap(client, "exec"), wrap(client, "transaction", "(transaction)")];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return sent;
}
