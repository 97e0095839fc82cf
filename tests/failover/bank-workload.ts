import fs from "node:fs";
import { expect } from "vitest";
import { parseMoney } from "@/contract/money";
import type { Database } from "@/server/db/client";
import { type ClientReply, request } from "@/tests/support/http-client";
import { ETH_ADDRESS } from "@/tests/support/money";
import type { SignedInUser } from "@/tests/support/users";

/** One try of one request, as the client saw it: every try is logged, whatever happened to it. */
export interface Try {
  key: string;
  customer: number;
  amountCents: number;
  try: number;
  sentAt: number;
  answeredAt: number;
  /** The HTTP status, or 0 when the connection broke before any answer. */
  status: number;
  /** The app answered (X-Request-Id), not the balancer's own page. */
  fromApp: boolean;
  retryable?: boolean;
  transferId?: string;
  error?: string;
}

/** A request's final, definite outcome: 201 (the transfer exists) or a 4xx refusal (nothing was written). */
export interface Outcome {
  key: string;
  customer: number;
  amountCents: number;
  status: number;
  transferId?: string;
  tries: number;
}

export interface Customer {
  user: SignedInUser;
  cookie: string;
  fundedCents: number;
}

export interface Workload {
  /** Stops sending new requests; requests in flight are finished (retried until definite). */
  stop(): Promise<void>;
  tries: Try[];
  outcomes: Outcome[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Many customers, each sending transfers one after another through the app balancer, each with its own
 * Idempotency-Key. A careful client: a broken connection, the balancer's own error, or the app's 503 (which
 * must say `retryable: true`) means "outcome unknown", and the same request is sent again with the same key
 * until it gets a definite answer. A request still unknown after `giveUpMs` fails the run.
 */
export function startWorkload(
  lbUrl: string,
  customers: Customer[],
  tag: string,
  { giveUpMs = 90_000, pauseMs = 50 } = {},
): Workload {
  const tries: Try[] = [];
  const outcomes: Outcome[] = [];
  let stopping = false;

  async function send(customer: number, key: string, amountCents: number): Promise<Outcome> {
    const started = Date.now();
    for (let n = 1; ; n++) {
      const sentAt = Date.now();
      let reply: ClientReply | undefined;
      let error: string | undefined;
      try {
        reply = await request(lbUrl, "/api/transfer/request", {
          method: "POST",
          headers: { cookie: customers[customer]!.cookie, "idempotency-key": key },
          body: {
            amount: (amountCents / 100).toFixed(2),
            recipientName: "Grace Hopper",
            purpose: `Failover ${tag}`,
            paymentMethod: "crypto",
            cryptoAddress: ETH_ADDRESS,
          },
        });
      } catch (err) {
        error = (err as Error).message;
      }
      const body = (reply?.body ?? {}) as { retryable?: boolean; transferRequest?: { id: string } };
      tries.push({
        key,
        customer,
        amountCents,
        try: n,
        sentAt,
        answeredAt: Date.now(),
        status: reply?.status ?? 0,
        fromApp: reply?.fromApp ?? false,
        retryable: body.retryable,
        transferId: body.transferRequest?.id,
        error,
      });
      if (reply?.fromApp && reply.status !== 503) {
        return {
          key,
          customer,
          amountCents,
          status: reply.status,
          transferId: body.transferRequest?.id,
          tries: n,
        };
      }
      if (Date.now() - started > giveUpMs) {
        throw new Error(`${key}: still no definite answer after ${n} tries (${giveUpMs} ms)`);
      }
      await sleep(200);
    }
  }

  const loops = customers.map(async (_c, customer) => {
    for (let i = 0; !stopping; i++) {
      // $1.00 to $4.99: a customer's day stays under the $2,000 limit however long the run.
      const amountCents = 100 + ((i * 7919 + customer * 104_729) % 400);
      outcomes.push(await send(customer, `${tag}-${customer}-${i}`, amountCents));
      await sleep(pauseMs);
    }
  });
  return {
    tries,
    outcomes,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

export interface Measured {
  scenario: string;
  requests: number;
  acknowledged: number;
  refused: number;
  /** Tries answered 503 by the app (each must have said retryable: true). */
  unavailable: number;
  /** Tries that got no answer from the app (connection broken, the balancer's own 502/503). */
  broken: number;
  /** From the fault to the first acknowledged write sent after it (ms); undefined when writes never stopped. */
  recoveryMs?: number;
  /** The longest time between two acknowledged writes around the fault (ms). */
  longestGapMs: number;
  lostAcknowledged: number;
  duplicated: number;
}

/** Writes every try to a JSON-lines file (kept for a failed run) and returns its path. */
export function writeLog(file: string, tries: Try[]): string {
  fs.writeFileSync(file, tries.map((t) => JSON.stringify(t)).join("\n"));
  return file;
}

/**
 * The Jepsen-style bank check, run after every fault, through the same balancer (so on the new primary):
 * every acknowledged transfer exists exactly once with its key; no transfer exists that was not
 * acknowledged (every unknown was resolved by its retry); each idempotency key is stored at most once; each
 * wallet holds exactly what its acknowledged transfers hold and its balance is what it was funded with
 * (totals conserved). The ledger invariants are the caller's (expectTransfersConsistent).
 */
export async function checkBank(
  database: Database,
  scenario: string,
  customers: Customer[],
  workload: Workload,
  faultAt: number,
): Promise<Measured> {
  const { tries, outcomes } = workload;
  const acknowledged = outcomes.filter((o) => o.status === 201);
  const refused = outcomes.filter((o) => o.status !== 201);
  for (const o of refused) expect([409, 422, 429], `${o.key} answered ${o.status}`).toContain(o.status);
  // Every 503 the app gave says the client may retry: none is a guess.
  const unavailable = tries.filter((t) => t.fromApp && t.status === 503);
  for (const t of unavailable) expect(t.retryable, `${t.key} try ${t.try}: 503 without retryable`).toBe(true);
  // A replayed answer names the same transfer as the first: one key, one transfer.
  for (const o of acknowledged) {
    const ids = new Set(tries.filter((t) => t.key === o.key && t.status === 201).map((t) => t.transferId));
    expect(ids.size, `${o.key}: several transfers for one key`).toBe(1);
  }

  const userIds = customers.map((c) => c.user.user.id);
  const rows = await database.query<{ id: string; user_id: string; amount: string; purpose: string }>(
    "select id, user_id, amount::text, purpose from transfer_requests where user_id = any($1::uuid[]) and purpose = $2",
    [userIds, `Failover ${scenario}`],
  );
  const byId = new Map<string, number>();
  for (const r of rows) byId.set(r.id, (byId.get(r.id) ?? 0) + 1);
  const lost = acknowledged.filter((o) => byId.get(o.transferId!) !== 1);
  const duplicated = [...byId.values()].filter((n) => n > 1).length;
  const ackIds = new Set(acknowledged.map((o) => o.transferId));
  const phantom = rows.filter((r) => !ackIds.has(r.id));
  const keys = await database.query<{ key: string; n: string }>(
    "select key, count(*)::text as n from idempotency_keys where user_id = any($1::uuid[]) and key like $2 group by key",
    [userIds, `${scenario}-%`],
  );
  const keyCounts = new Map(keys.map((k) => [k.key, Number(k.n)]));
  const measured = measure(scenario, tries, outcomes, faultAt, lost.length, duplicated);
  expect(
    lost.map((o) => o.key),
    "acknowledged transfers missing after the fault",
  ).toEqual([]);
  expect(duplicated, "transfers written twice").toBe(0);
  expect(
    phantom.map((r) => r.id),
    "transfers nobody was told about",
  ).toEqual([]);
  expect([...keyCounts.values()].every((n) => n === 1)).toBe(true);
  expect(new Set(keyCounts.keys())).toEqual(new Set(acknowledged.map((o) => o.key)));
  return measured;
}

/** Each wallet: balance as funded, held exactly its acknowledged pending transfers (no transfer settles here). */
export async function expectTotalsConserved(database: Database, customers: Customer[], outcomes: Outcome[]) {
  const wallets = await database.query<{ user_id: string; balance: string; held: string }>(
    "select user_id, balance::text, held::text from ledger_accounts where kind = 'wallet' and user_id = any($1::uuid[])",
    [customers.map((c) => c.user.user.id)],
  );
  const byUser = new Map(wallets.map((w) => [w.user_id, w]));
  customers.forEach((c, i) => {
    const w = byUser.get(c.user.user.id)!;
    const heldCents = outcomes
      .filter((o) => o.customer === i && o.status === 201)
      .reduce((s, o) => s + o.amountCents, 0);
    expect(Number(w.balance), `customer ${i} balance`).toBe(c.fundedCents);
    expect(Number(w.held), `customer ${i} held`).toBe(heldCents);
    expect(Number(w.balance) - Number(w.held)).toBeGreaterThanOrEqual(0);
  });
}

function measure(
  scenario: string,
  tries: Try[],
  outcomes: Outcome[],
  faultAt: number,
  lostAcknowledged: number,
  duplicated: number,
): Measured {
  const acks = tries.filter((t) => t.status === 201).sort((a, b) => a.answeredAt - b.answeredAt);
  const firstAfter = acks.find((t) => t.sentAt >= faultAt);
  let longestGapMs = 0;
  for (let i = 1; i < acks.length; i++) {
    if (acks[i]!.answeredAt < faultAt - 5_000) continue;
    longestGapMs = Math.max(longestGapMs, acks[i]!.answeredAt - acks[i - 1]!.answeredAt);
  }
  return {
    scenario,
    requests: outcomes.length,
    acknowledged: outcomes.filter((o) => o.status === 201).length,
    refused: outcomes.filter((o) => o.status !== 201).length,
    unavailable: tries.filter((t) => t.fromApp && t.status === 503).length,
    broken: tries.filter((t) => !t.fromApp).length,
    recoveryMs: firstAfter ? firstAfter.answeredAt - faultAt : undefined,
    longestGapMs,
    lostAcknowledged,
    duplicated,
  };
}

export const cents = (amount: string) => parseMoney(amount)!;
