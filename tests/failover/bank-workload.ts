import fs from "node:fs";
import { expect } from "vitest";
import { parseMoney } from "@/contract/money";
import type { Database } from "@/server/db/client";
import { type ClientReply, request } from "@/tests/support/http-client";
import { ETH_ADDRESS } from "@/tests/support/money";
import type { SignedInUser } from "@/tests/support/users";

/** What a request writes: a customer's transfer or chat message, a staff credit, or its approval by a second member. */
export type Kind = "transfer" | "chat" | "credit" | "approve";

/** One try of one request, as the client saw it: every try is logged, whatever happened to it. */
export interface Try {
  kind: Kind;
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
  /** What the answer named: the transfer, the chat message, the payment, or the approval (a 202 credit). */
  id?: string;
  error?: string;
}

/**
 * A request's final, definite outcome: a 2xx (it exists), or a 4xx refusal (nothing was written). An approval
 * whose first tries were unknown can end in 409 "already decided": its first try did it (checked in the data).
 */
export interface Outcome {
  kind: Kind;
  key: string;
  customer: number;
  amountCents: number;
  status: number;
  id?: string;
  tries: number;
}

export interface Customer {
  user: SignedInUser;
  cookie: string;
  fundedCents: number;
}

/** Two staff members: the maker credits customers, the checker approves what is over the threshold. */
export interface Staff {
  makerCookie: string;
  checkerCookie: string;
}

export interface Workload {
  /** Stops sending new requests; requests in flight are finished (retried until definite). */
  stop(): Promise<void>;
  tries: Try[];
  outcomes: Outcome[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The write's text, carrying its key: how the check finds a chat message or a credit in the data. */
export const labelOf = (tag: string, key: string) => `Failover ${tag} ${key}`;

/**
 * Many customers, each sending transfers one after another through the app balancer, each with its own
 * Idempotency-Key, and every third turn a chat message with its own key; with `staff`, a maker crediting the
 * customers in turn (one in five over APPROVAL_THRESHOLD; the others too once the 24-hour window is full) and a
 * checker approving each credit that waits. A careful client: a broken connection, the balancer's own error,
 * or the app's 503 (which must say `retryable: true`) means "outcome unknown", and the same request is sent
 * again with the same key until it gets a definite answer. A request still unknown after `giveUpMs` fails the
 * run.
 */
export function startWorkload(
  lbUrl: string,
  customers: Customer[],
  tag: string,
  { giveUpMs = 90_000, pauseMs = 50, staff }: { giveUpMs?: number; pauseMs?: number; staff?: Staff } = {},
): Workload {
  const tries: Try[] = [];
  const outcomes: Outcome[] = [];
  let stopping = false;

  async function send(
    op: { kind: Kind; key: string; customer: number; amountCents: number },
    path: string,
    cookie: string,
    body: object,
    idOf: (status: number, body: Record<string, unknown>) => string | undefined,
  ): Promise<Outcome> {
    const started = Date.now();
    for (let n = 1; ; n++) {
      const sentAt = Date.now();
      let reply: ClientReply | undefined;
      let error: string | undefined;
      try {
        reply = await request(lbUrl, path, {
          method: "POST",
          // An approval has no key of its own: deciding it twice answers 409, never a second credit.
          headers: { cookie, ...(op.kind === "approve" ? {} : { "idempotency-key": op.key }) },
          body,
        });
      } catch (err) {
        error = (err as Error).message;
      }
      const answer = (reply?.body ?? {}) as Record<string, unknown> & { retryable?: boolean };
      const status = reply?.status ?? 0;
      const id = reply?.fromApp && status < 300 ? idOf(status, answer) : undefined;
      tries.push({
        ...op,
        try: n,
        sentAt,
        answeredAt: Date.now(),
        status,
        fromApp: reply?.fromApp ?? false,
        retryable: answer.retryable,
        id,
        error,
      });
      if (reply?.fromApp && status !== 503) {
        const outcome = { ...op, status, id, tries: n };
        outcomes.push(outcome);
        return outcome;
      }
      if (Date.now() - started > giveUpMs) {
        throw new Error(`${op.key}: still no definite answer after ${n} tries (${giveUpMs} ms)`);
      }
      await sleep(200);
    }
  }

  const customerLoops = customers.map(async (c, customer) => {
    for (let i = 0; !stopping; i++) {
      // $1.00 to $4.99: a customer's day stays under the $2,000 limit however long the run.
      const amountCents = 100 + ((i * 7919 + customer * 104_729) % 400);
      const key = `${tag}-${customer}-${i}`;
      await send(
        { kind: "transfer", key, customer, amountCents },
        "/api/transfer/request",
        c.cookie,
        {
          amount: (amountCents / 100).toFixed(2),
          recipientName: "Grace Hopper",
          purpose: `Failover ${tag}`,
          paymentMethod: "crypto",
          cryptoAddress: ETH_ADDRESS,
        },
        (_, b) => (b.transferRequest as { id: string } | undefined)?.id,
      );
      if (i % 3 === 0) {
        const chatKey = `${tag}-chat-${customer}-${i}`;
        await send(
          { kind: "chat", key: chatKey, customer, amountCents: 0 },
          "/api/chat/send",
          c.cookie,
          { message: labelOf(tag, chatKey) },
          (_, b) => String(b.id),
        );
      }
      await sleep(pauseMs);
    }
  });

  const staffLoop = (async () => {
    if (!staff) return;
    for (let i = 0; !stopping; i++) {
      const customer = i % customers.length;
      // $1.00 to $4.99, and one in five $1,000 more: over the threshold, so a second member must approve it.
      const amountCents = 100 + ((i * 6151) % 400) + (i % 5 === 4 ? 100_000 : 0);
      const key = `${tag}-credit-${i}`;
      const credit = await send(
        { kind: "credit", key, customer, amountCents },
        "/api/admin/incoming-payments",
        staff.makerCookie,
        {
          userId: customers[customer]!.user.user.id,
          amount: (amountCents / 100).toFixed(2),
          status: "completed",
          description: labelOf(tag, key),
          reason: "Failover workload",
        },
        (status, b) =>
          status === 202 ? (b.approval as { id: string }).id : (b.payment as { id: string }).id,
      );
      if (credit.status === 202) {
        await send(
          { kind: "approve", key, customer, amountCents },
          `/api/admin/approvals/${credit.id}/approve`,
          staff.checkerCookie,
          {},
          (_, b) => (b.result as { payment?: { id: string } } | undefined)?.payment?.id ?? "",
        );
      }
      await sleep(pauseMs * 2);
    }
  })();

  return {
    tries,
    outcomes,
    async stop() {
      stopping = true;
      await Promise.all([...customerLoops, staffLoop]);
    },
  };
}

export interface Measured {
  scenario: string;
  requests: number;
  acknowledged: number;
  /** Acknowledged requests of each kind. */
  acknowledgedByKind: Record<Kind, number>;
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

const succeeded = (status: number) => status >= 200 && status < 300;

/** The acknowledged credits as the client knows them: made at once (201), or approved by the checker. */
function creditsDone(outcomes: Outcome[]): Outcome[] {
  const approved = new Set(
    outcomes
      .filter((o) => o.kind === "approve" && (succeeded(o.status) || (o.status === 409 && o.tries > 1)))
      .map((o) => o.key),
  );
  return outcomes.filter((o) => o.kind === "credit" && (o.status === 201 || approved.has(o.key)));
}

/** Counts per label: the labels acknowledged but not there exactly once, those written twice, and the phantoms. */
function compare(acknowledged: string[], counts: Map<string, number>) {
  const acked = new Set(acknowledged);
  return {
    lost: acknowledged.filter((label) => counts.get(label) !== 1),
    duplicated: [...counts.values()].filter((n) => n > 1).length,
    phantom: [...counts.keys()].filter((label) => !acked.has(label)),
  };
}

/**
 * The Jepsen-style bank check, run after every fault, through the same balancer (so on the new primary):
 * every acknowledged transfer, chat message and credit exists exactly once; nothing exists that was not
 * acknowledged (every unknown was resolved by its retry); each idempotency key is stored at most once; each
 * credit over the threshold waited on exactly one approval, decided once. Wallet totals are
 * expectTotalsConserved's; the ledger invariants are the caller's (expectTransfersConsistent).
 */
export async function checkBank(
  database: Database,
  scenario: string,
  customers: Customer[],
  workload: Workload,
  faultAt: number,
): Promise<Measured> {
  const { tries, outcomes } = workload;
  for (const o of outcomes.filter((x) => !succeeded(x.status))) {
    if (o.kind === "approve") {
      // Only a resend of an approval whose first try was unknown may find it decided already.
      expect(
        o.status === 409 && o.tries > 1,
        `${o.key}: approve answered ${o.status} on try ${o.tries}`,
      ).toBe(true);
    } else {
      expect([409, 422, 429], `${o.kind} ${o.key} answered ${o.status}`).toContain(o.status);
    }
  }
  // Every 503 the app gave says the client may retry: none is a guess.
  const unavailable = tries.filter((t) => t.fromApp && t.status === 503);
  for (const t of unavailable) expect(t.retryable, `${t.key} try ${t.try}: 503 without retryable`).toBe(true);
  // A replayed answer names the same write as the first: one key, one write.
  for (const o of outcomes.filter((x) => succeeded(x.status))) {
    const ids = new Set(
      tries.filter((t) => t.key === o.key && t.kind === o.kind && succeeded(t.status)).map((t) => t.id),
    );
    expect(ids.size, `${o.kind} ${o.key}: several writes for one key`).toBe(1);
  }
  const userIds = customers.map((c) => c.user.user.id);
  const label = labelOf(scenario, "");

  // Transfers: by id, with the purpose the run gave them.
  const acknowledged = outcomes.filter((o) => o.kind === "transfer" && o.status === 201);
  const rows = await database.query<{ id: string }>(
    "select id from transfer_requests where user_id = any($1::uuid[]) and purpose = $2",
    [userIds, `Failover ${scenario}`],
  );
  const byId = new Map<string, number>();
  for (const r of rows) byId.set(r.id, (byId.get(r.id) ?? 0) + 1);
  const transfers = compare(
    acknowledged.map((o) => o.id!),
    byId,
  );
  const keys = await database.query<{ key: string; n: string }>(
    "select key, count(*)::text as n from idempotency_keys where user_id = any($1::uuid[]) and key like $2 group by key",
    [userIds, `${scenario}-%`],
  );
  const keyCounts = new Map(keys.map((k) => [k.key, Number(k.n)]));

  // Chat messages and credits: by the label that carries their key.
  const chats = compare(
    outcomes.filter((o) => o.kind === "chat" && succeeded(o.status)).map((o) => labelOf(scenario, o.key)),
    await countsBy(
      database,
      "select message as label, count(*)::int as n from chat_messages where user_id = any($1::uuid[]) and starts_with(message, $2) group by message",
      [userIds, label],
    ),
  );
  const credits = compare(
    creditsDone(outcomes).map((o) => labelOf(scenario, o.key)),
    await countsBy(
      database,
      "select description as label, count(*)::int as n from incoming_payments where user_id = any($1::uuid[]) and status = 'completed' and starts_with(description, $2) group by description",
      [userIds, label],
    ),
  );
  const approvals = compare(
    outcomes.filter((o) => o.kind === "credit" && o.status === 202).map((o) => labelOf(scenario, o.key)),
    await countsBy(
      database,
      "select payload->'input'->>'description' as label, count(*)::int as n from approvals where status = 'approved' and starts_with(payload->'input'->>'description', $1) group by 1",
      [label],
    ),
  );

  const lost = transfers.lost.length + chats.lost.length + credits.lost.length + approvals.lost.length;
  const duplicated = transfers.duplicated + chats.duplicated + credits.duplicated + approvals.duplicated;
  const measured = measure(scenario, tries, outcomes, faultAt, lost, duplicated);
  expect(
    { transfers: transfers.lost, chats: chats.lost, credits: credits.lost, approvals: approvals.lost },
    "acknowledged writes missing after the fault",
  ).toEqual({ transfers: [], chats: [], credits: [], approvals: [] });
  expect(duplicated, "writes made twice").toBe(0);
  expect(
    {
      transfers: transfers.phantom,
      chats: chats.phantom,
      credits: credits.phantom,
      approvals: approvals.phantom,
    },
    "writes nobody was told about",
  ).toEqual({ transfers: [], chats: [], credits: [], approvals: [] });
  expect([...keyCounts.values()].every((n) => n === 1)).toBe(true);
  expect(new Set(keyCounts.keys())).toEqual(new Set(acknowledged.map((o) => o.key)));
  return measured;
}

async function countsBy(database: Database, sql: string, params: unknown[]): Promise<Map<string, number>> {
  const rows = await database.query<{ label: string; n: number }>(sql, params);
  return new Map(rows.map((r) => [r.label, Number(r.n)]));
}

/**
 * Each wallet: its funding plus the credits acknowledged to it, and held exactly its acknowledged pending
 * transfers (no transfer settles here).
 */
export async function expectTotalsConserved(database: Database, customers: Customer[], outcomes: Outcome[]) {
  const wallets = await database.query<{ user_id: string; balance: string; held: string }>(
    "select user_id, balance::text, held::text from ledger_accounts where kind = 'wallet' and user_id = any($1::uuid[])",
    [customers.map((c) => c.user.user.id)],
  );
  const byUser = new Map(wallets.map((w) => [w.user_id, w]));
  const credited = creditsDone(outcomes);
  customers.forEach((c, i) => {
    const w = byUser.get(c.user.user.id)!;
    const heldCents = outcomes
      .filter((o) => o.kind === "transfer" && o.customer === i && o.status === 201)
      .reduce((s, o) => s + o.amountCents, 0);
    const creditedCents = credited.filter((o) => o.customer === i).reduce((s, o) => s + o.amountCents, 0);
    expect(Number(w.balance), `customer ${i} balance`).toBe(c.fundedCents + creditedCents);
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
  const acks = tries.filter((t) => succeeded(t.status)).sort((a, b) => a.answeredAt - b.answeredAt);
  const firstAfter = acks.find((t) => t.sentAt >= faultAt);
  let longestGapMs = 0;
  for (let i = 1; i < acks.length; i++) {
    if (acks[i]!.answeredAt < faultAt - 5_000) continue;
    longestGapMs = Math.max(longestGapMs, acks[i]!.answeredAt - acks[i - 1]!.answeredAt);
  }
  const count = (kind: Kind) => outcomes.filter((o) => o.kind === kind && succeeded(o.status)).length;
  return {
    scenario,
    requests: outcomes.length,
    acknowledged: outcomes.filter((o) => succeeded(o.status)).length,
    acknowledgedByKind: {
      transfer: count("transfer"),
      chat: count("chat"),
      credit: count("credit"),
      approve: count("approve"),
    },
    refused: outcomes.filter((o) => !succeeded(o.status)).length,
    unavailable: tries.filter((t) => t.fromApp && t.status === 503).length,
    broken: tries.filter((t) => !t.fromApp).length,
    recoveryMs: firstAfter ? firstAfter.answeredAt - faultAt : undefined,
    longestGapMs,
    lostAcknowledged,
    duplicated,
  };
}

export const cents = (amount: string) => parseMoney(amount)!;
