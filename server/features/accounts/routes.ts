import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { ACCOUNTS_ENDPOINTS } from "@/contract/transactions";
import {
  findRecentTransactionsIfChanged,
  findTransactionPage,
} from "@/server/features/accounts/account-queries";
import { startTransactionsCsv } from "@/server/features/accounts/export-transactions-csv";
import { getAccountSummaryIfChanged } from "@/server/features/accounts/get-account-summary";
import { sendConditionalResult } from "@/server/lib/conditional-reply";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/** A customer's own balances and history. Every query is scoped to the signed-in user. */
export async function accountRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  // On-chain movements show their confirmations, and link to the block explorer when one is configured
  // (CHAIN_EXPLORER_URL).
  const settings = app.deps.config.chain;
  const chain = settings
    ? { explorerUrl: settings.explorerUrl, confirmations: settings.confirmations }
    : undefined;

  registerEndpoints(app, ACCOUNTS_ENDPOINTS, {
    // The dashboard polls these two every few seconds: a current copy is answered 304 from memory (poll-memory.ts).
    "GET /api/account/summary": async (request, reply) => {
      const userId = signedInUser(request).id;
      const ifNoneMatch = request.headers["if-none-match"];
      return sendConditionalResult(
        reply,
        await app.polls.answer(userId, "summary", ifNoneMatch, () =>
          getAccountSummaryIfChanged(db, userId, ifNoneMatch),
        ),
      );
    },
    "GET /api/transactions/recent": async (request, reply) => {
      const userId = signedInUser(request).id;
      const ifNoneMatch = request.headers["if-none-match"];
      return sendConditionalResult(
        reply,
        await app.polls.answer(userId, "recent", ifNoneMatch, () =>
          findRecentTransactionsIfChanged(db, userId, ifNoneMatch, chain),
        ),
      );
    },
    "GET /api/transactions": (request) =>
      findTransactionPage(db, signedInUser(request).id, request.query, chain),
    // Streamed in batches with backpressure: a years-long history never sits whole in memory or holds a connection.
    "GET /api/transactions/export.csv": async (request, reply) => {
      const chunks = await startTransactionsCsv(db, signedInUser(request).id);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="pillar-transactions.csv"')
        .send(Readable.from(chunks, { objectMode: false }));
    },
  });
}
