import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createPublicClient, http } from "viem";
import { z } from "zod";
import { pdfDownload } from "@/contract/media";
import { chainName } from "@/contract/settlement";
import { cancelTransferResponse, transferReceipt } from "@/contract/transfers";
import { cancelTransfer } from "@/server/features/transfers/cancel-transfer";
import { getTransferReceipt, type ReceiptChainView } from "@/server/features/transfers/get-transfer-receipt";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

// Any string: a malformed id is answered 404 by the service, like a missing or someone else's one.
const params = z.object({ id: z.string().max(100) });

/** The PDF renderer pulls in pdfkit (~25 MiB resident): loaded on the first receipt, not at start. */
const receiptRenderer = () => import("@/server/features/transfers/render-transfer-receipt");

/** /api/transfers/{id}: a customer's receipt for one of their own transfers (also as a PDF), and cancelling it while pending. */
export async function transferReceiptRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireUser);
  const chain = app.deps.config.chain;
  const node =
    chain &&
    createPublicClient({ cacheTime: 0, transport: http(chain.rpcUrl, { retryCount: 0, timeout: 3_000 }) });
  // The payout's depth; a node out of reach shows what the database knows rather than failing the receipt.
  const chainView: ReceiptChainView | undefined = chain && {
    chainName: chainName(chain.chainId),
    confirmations: chain.confirmations,
    explorerUrl: chain.explorerUrl,
    head: () =>
      node!
        .getBlockNumber()
        .then(Number)
        .catch(() => null),
  };

  app.get("/:id", { schema: { params, response: { 200: transferReceipt } } }, (request) =>
    getTransferReceipt(db, signedInUser(request).id, request.params.id, chainView),
  );

  app.post(
    "/:id/cancel",
    { schema: { params, response: { 200: cancelTransferResponse } } },
    async (request) => ({
      message: "Transfer cancelled",
      receipt: await cancelTransfer(db, signedInUser(request).id, request.params.id),
    }),
  );

  app.get(
    "/:id/receipt.pdf",
    { schema: { params: z.object({ id: z.string().max(64) }), response: { 200: pdfDownload } } },
    async (request, reply) => {
      const { findReceiptTransfer, renderTransferReceipt } = await receiptRenderer();
      const transfer = await findReceiptTransfer(db, signedInUser(request).id, request.params.id);
      return reply
        .type("application/pdf")
        .header(
          "content-disposition",
          `attachment; filename="pillar-receipt-${transfer.transfer.id.slice(0, 8)}.pdf"`,
        )
        .send(renderTransferReceipt(transfer));
    },
  );
}
