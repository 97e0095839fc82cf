import type { FastifyInstance } from "fastify";
import { createPublicClient, http } from "viem";
import { chainName } from "@/contract/settlement";
import { TRANSFER_RECEIPT_ENDPOINTS } from "@/contract/transfers";
import { cancelTransfer } from "@/server/features/transfers/cancel-transfer";
import { getTransferReceipt, type ReceiptChainView } from "@/server/features/transfers/get-transfer-receipt";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/** The PDF renderer pulls in pdfkit (~25 MiB resident): loaded on the first receipt, not at start. */
const receiptRenderer = () => import("@/server/features/transfers/render-transfer-receipt");

/** /api/transfers/{id}: a customer's receipt for one of their own transfers (also as a PDF), and cancelling it while pending. */
export async function transferReceiptRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
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

  registerEndpoints(app, TRANSFER_RECEIPT_ENDPOINTS, {
    "GET /api/transfers/:id": (request) =>
      getTransferReceipt(db, signedInUser(request).id, request.params.id, chainView),
    "POST /api/transfers/:id/cancel": async (request) => ({
      message: "Transfer cancelled",
      receipt: await cancelTransfer(db, signedInUser(request).id, request.params.id),
    }),
    "GET /api/transfers/:id/receipt.pdf": async (request, reply) => {
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
  });
}
