import { Download, SearchX } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useParams } from "wouter";
import { transferFigures, usdcNetwork } from "@/contract/transfer-figures";
import type { TransferOnChain, TransferReceipt } from "@/contract/transfers";
import { LoadError } from "@/web/components/load-error";
import { MoneyShell } from "@/web/components/money-shell";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { WalletAddress } from "@/web/components/wallet-address";
import { useTransferReceipt } from "@/web/features/transfers/api/get-transfer-receipt";
import { CancelTransferButton } from "@/web/features/transfers/components/cancel-transfer-button";
import { SummaryLine } from "@/web/features/transfers/components/summary-line";
import { TransferFigureLines, UnsentNote } from "@/web/features/transfers/components/transfer-figure-lines";
import { TransferTimeline } from "@/web/features/transfers/components/transfer-timeline";
import { ApiError, hrefOf } from "@/web/lib/api";
import { formatDateTime } from "@/web/lib/format";
import { confirmationDepth, STATUS_VIEW } from "@/web/lib/transaction-display";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** The payout's transaction on chain: its hash (linked to the explorer when configured) and its depth. */
function OnChainLines({ onChain }: { onChain: TransferOnChain }) {
  const { txHash, confirmations, confirmationsRequired, explorerUrl } = onChain;
  return (
    <>
      <div className="grid gap-1 py-2">
        <dt className="text-ink-muted">Transaction hash</dt>
        <dd className="break-all font-mono text-xs text-ink">
          {explorerUrl ? (
            <a
              href={explorerUrl}
              target="_blank"
              rel="noreferrer noopener"
              className="underline underline-offset-2 hover:text-ink-muted"
            >
              {txHash}
              <span className="sr-only"> (opens the block explorer in a new tab)</span>
            </a>
          ) : (
            txHash
          )}
        </dd>
      </div>
      <SummaryLine label="Confirmations">
        {confirmationDepth(confirmations, confirmationsRequired)}
      </SummaryLine>
    </>
  );
}

function Receipt({ receipt }: { receipt: TransferReceipt }) {
  const status = STATUS_VIEW[receipt.status];
  const figures = transferFigures({
    amountCents: receipt.amountCents,
    feeCents: receipt.feeCents,
    status: receipt.status,
  });
  return (
    <div className="grid items-start gap-6 grid-cols-[minmax(0,1fr)] lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Card>
        <CardHeader className="gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h1 className="text-lg font-semibold leading-tight tracking-tight text-ink">
              USDC transfer to {receipt.recipientName}
            </h1>
            <Badge tone={status.tone}>{status.label}</Badge>
          </div>
          <p className="text-sm text-ink-muted">
            Reference{" "}
            <span className="font-mono font-semibold tracking-wider text-ink">{receipt.reference}</span> ·{" "}
            {formatDateTime(receipt.createdAt)}
          </p>
        </CardHeader>
        <CardContent className="grid gap-5">
          <dl className="grid divide-y divide-line rounded-lg border border-line px-4 text-sm">
            <TransferFigureLines
              amountCents={receipt.amountCents}
              feeCents={receipt.feeCents}
              status={receipt.status}
            />
            <SummaryLine label="Recipient">{receipt.recipientName}</SummaryLine>
            <SummaryLine label="Network">{receipt.network ?? usdcNetwork(receipt.cryptoAddress)}</SummaryLine>
            <div className="grid gap-1 py-2">
              <dt className="text-ink-muted">USDC wallet address</dt>
              <dd className="rounded-md bg-canvas p-3">
                <WalletAddress address={receipt.cryptoAddress} />
              </dd>
            </div>
            <SummaryLine label="Purpose">{receipt.purpose}</SummaryLine>
            {receipt.onChain?.txHash ? <OnChainLines onChain={receipt.onChain} /> : null}
          </dl>
          {receipt.onChain?.failureReason ? (
            <p className="rounded-lg border border-line bg-canvas p-3 text-sm text-ink">
              {receipt.onChain.failureReason}
            </p>
          ) : null}
          <UnsentNote figures={figures} />
          <div className="flex flex-wrap gap-3">
            <Button asChild variant="secondary">
              {/* The PDF route is served by the statements work; this page only links to it. */}
              <a href={hrefOf("GET /api/transfers/:id/receipt.pdf", { params: { id: receipt.id } })} download>
                <Download aria-hidden />
                Download receipt (PDF)
              </a>
            </Button>
            {receipt.canCancel ? (
              <CancelTransferButton id={receipt.id} amountCents={receipt.amountCents} />
            ) : null}
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Status</CardTitle>
        </CardHeader>
        <CardContent>
          <TransferTimeline steps={receipt.timeline} />
        </CardContent>
      </Card>
    </div>
  );
}

function NotFound() {
  return (
    <Card className="mx-auto grid w-full max-w-lg justify-items-center gap-3 px-6 py-10 text-center">
      <SearchX className="size-8 text-ink-subtle" aria-hidden />
      <h1 className="text-xl font-semibold tracking-tight text-ink">Transfer not found</h1>
      <p className="text-sm text-ink-muted">
        There is no transfer of yours with this link. Check your history on the dashboard.
      </p>
      <Button asChild variant="secondary">
        <Link href="/dashboard">Back to Dashboard</Link>
      </Button>
    </Card>
  );
}

/** /transfers/{id}: one of the customer's own transfers, its timeline, and cancelling it while pending. */
export default function ReceiptPage() {
  useDocumentTitle("Transfer receipt");
  const { id = "" } = useParams<{ id: string }>();
  const receipt = useTransferReceipt(id);
  let body: ReactNode;
  if (receipt.isPending) {
    body = <Skeleton className="h-96 rounded-card" />;
  } else if (receipt.isError) {
    body =
      receipt.error instanceof ApiError && receipt.error.status === 404 ? (
        <NotFound />
      ) : (
        <LoadError what="this transfer" onRetry={() => void receipt.refetch()} framed />
      );
  } else {
    body = <Receipt receipt={receipt.data} />;
  }
  return (
    <MoneyShell title="Transfer receipt" tab="/send-money">
      {body}
    </MoneyShell>
  );
}
