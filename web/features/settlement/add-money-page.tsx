import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, Copy, ExternalLink } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import type { ChainDeposit, DepositInfo } from "@/contract/settlement";
import { DEPOSIT_REVERSED_MESSAGE, SETTLEMENT_MESSAGES } from "@/contract/settlement";
import { LoadError } from "@/web/components/load-error";
import { MoneyShell } from "@/web/components/money-shell";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/components/ui/use-toast";
import { ApiError, callEndpoint } from "@/web/lib/api";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** GET /api/deposits, polled while a deposit waits for its confirmations. */
function useDepositInfo() {
  return useQuery({
    queryKey: ["/api/deposits"],
    queryFn: ({ signal }) => callEndpoint("GET /api/deposits", {}, { signal }),
    refetchInterval: (query) => {
      const data = query.state.data;
      return data?.mode === "chain" && data.deposits.some((d) => d.status === "pending") ? 5_000 : 30_000;
    },
  });
}

/** The address as a QR code (the `qrcode` package, loaded only on this page). */
function AddressQr({ address }: { address: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    import("qrcode")
      .then((qr) => qr.toString(address, { type: "svg", margin: 1, errorCorrectionLevel: "M" }))
      .then((text) => isCurrent && setSvg(text))
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [address]);
  if (!svg) return <Skeleton className="size-44" role="status" aria-label="Drawing the QR code" />;
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt="QR code of your deposit address"
      className="size-44 rounded-lg border border-line bg-white p-2"
    />
  );
}

const STATUS: Record<ChainDeposit["status"], { label: string; tone: "neutral" | "positive" | "pending" }> = {
  pending: { label: "Pending", tone: "pending" },
  under_review: { label: "Under review", tone: "pending" },
  credited: { label: "Credited", tone: "positive" },
  below_cent: { label: "Below one cent", tone: "neutral" },
  reversed: { label: "Reversed", tone: "neutral" },
};

function DepositList({ deposits, confirmations }: { deposits: ChainDeposit[]; confirmations: number }) {
  if (deposits.length === 0) {
    return (
      <p className="text-sm text-ink-muted">
        No deposits yet. They appear here as soon as the network sees them.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-line rounded-lg border border-line" aria-label="USDC deposits">
      {deposits.map((d) => (
        <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
          <span className="grid min-w-0 gap-0.5">
            <span className="text-sm font-semibold text-ink tabular-nums">{d.amount}</span>
            <span className="truncate font-mono text-xs text-ink-muted" title={d.txHash}>
              {d.explorerUrl ? (
                <a href={d.explorerUrl} target="_blank" rel="noreferrer" className="underline">
                  {d.txHash.slice(0, 10)}…{d.txHash.slice(-8)}
                </a>
              ) : (
                `${d.txHash.slice(0, 10)}…${d.txHash.slice(-8)}`
              )}
            </span>
            {d.status === "pending" ? (
              <span className="text-xs text-ink-muted">
                Credited after {confirmations} network confirmations
              </span>
            ) : null}
            {d.status === "under_review" ? (
              <span className="text-xs text-ink-muted">{SETTLEMENT_MESSAGES.underReview}</span>
            ) : null}
            {d.status === "reversed" ? (
              <span className="text-xs text-ink-muted">{DEPOSIT_REVERSED_MESSAGE}</span>
            ) : null}
          </span>
          <Badge tone={STATUS[d.status].tone}>{STATUS[d.status].label}</Badge>
        </li>
      ))}
    </ul>
  );
}

function ChainDeposits({ info }: { info: Extract<DepositInfo, { mode: "chain" }> }) {
  const copy = () =>
    navigator.clipboard.writeText(info.address).then(
      () => toast({ title: "Address copied" }),
      () => toast({ title: "Could not copy", description: "Select the address and copy it yourself." }),
    );
  return (
    <div className="grid items-start gap-6 grid-cols-[minmax(0,1fr)] lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Card>
        <CardHeader>
          <CardTitle>Your USDC deposit address</CardTitle>
          <CardDescription>
            USDC on <strong className="text-ink">{info.chainName}</strong>. Yours alone: every deposit to it
            is credited to your account.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div
            role="alert"
            className="flex items-start gap-2 rounded-lg border border-pending/40 bg-pending-soft p-3 text-sm text-ink"
          >
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>{info.warning}</span>
          </div>
          <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
            <AddressQr address={info.address} />
            <div className="grid min-w-0 flex-1 gap-2">
              <span className="text-xs font-medium text-ink-muted">Address</span>
              <code className="break-all rounded-md border border-line bg-canvas p-2 font-mono text-sm text-ink">
                {info.address}
              </code>
              <div className="flex flex-wrap gap-2">
                <Button type="button" variant="secondary" onClick={() => void copy()}>
                  <Copy aria-hidden />
                  Copy address
                </Button>
                {info.explorerUrl ? (
                  <Button asChild variant="ghost">
                    <a href={info.explorerUrl} target="_blank" rel="noreferrer">
                      <ExternalLink aria-hidden />
                      View on explorer
                    </a>
                  </Button>
                ) : null}
              </div>
            </div>
          </div>
          <p className="text-xs text-ink-muted">
            A deposit shows as pending when the network sees it and is credited after {info.confirmations}{" "}
            confirmations. {SETTLEMENT_MESSAGES.belowCent}
          </p>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Recent deposits</CardTitle>
        </CardHeader>
        <CardContent>
          <DepositList deposits={info.deposits} confirmations={info.confirmations} />
        </CardContent>
      </Card>
    </div>
  );
}

/** /add-money: the customer's USDC deposit address, its QR code and their recent deposits. */
export default function AddMoneyPage() {
  useDocumentTitle("Add money");
  const info = useDepositInfo();
  let body: React.ReactNode;
  if (info.isError) {
    const refused = info.error instanceof ApiError && info.error.status === 409;
    body = refused ? (
      <Card>
        <CardContent className="grid gap-3 p-6 text-sm text-ink-muted">
          <p>{info.error.message}</p>
          <Button asChild variant="secondary" className="justify-self-start">
            <Link href="/dashboard">Back to the dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    ) : (
      <LoadError what="your deposit address" onRetry={() => void info.refetch()} />
    );
  } else if (!info.data) {
    body = <Skeleton className="h-72 rounded-lg" aria-hidden />;
  } else if (info.data.mode === "manual") {
    body = (
      <Card>
        <CardContent className="p-6 text-sm text-ink-muted">{info.data.message}</CardContent>
      </Card>
    );
  } else {
    body = <ChainDeposits info={info.data} />;
  }
  return (
    <MoneyShell title="Add money" tab="/dashboard">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight text-ink">Add money</h1>
        <p className="max-w-2xl text-sm text-ink-muted">
          Move USDC from another wallet or an exchange into your account.
        </p>
      </div>
      {body}
    </MoneyShell>
  );
}
