import { ArrowLeft, Send, ShieldAlert } from "lucide-react";
import { Fragment, useEffect, useRef } from "react";
import { transferFigures } from "@/contract/transfer-figures";
import { hasNoChecksum, TRANSFER_MESSAGES, type TransferLimits } from "@/contract/transfers";
import { Button } from "@/web/components/ui/button";
import { Spinner } from "@/web/components/ui/spinner";
import { WalletAddress } from "@/web/components/wallet-address";
import { useAddressCheck } from "@/web/features/recipients/api/check-address";
import { hasWrongChecksum } from "@/web/features/transfers/address-checksum";
import { type AddressChoices, AddressWarnings } from "@/web/features/transfers/components/address-warnings";
import { SummaryLine } from "@/web/features/transfers/components/summary-line";
import { TransferFigureLines } from "@/web/features/transfers/components/transfer-figure-lines";
import { remainingOf } from "@/web/features/transfers/components/transfer-totals";

/**
 * The last look before money leaves: exactly what will be sent (and, with a passkey, signed). Nothing is sent
 * until "Confirm and send".
 */
export function TransferReview({
  amountCents,
  feeCents,
  recipientName,
  cryptoAddress,
  limits,
  isSending,
  onBack,
  onConfirm,
  choices,
}: {
  amountCents: number;
  feeCents: number;
  recipientName: string;
  cryptoAddress: string;
  limits: TransferLimits | undefined;
  isSending: boolean;
  onBack: () => void;
  onConfirm: () => void;
  /** The lookalike confirmation and "save this recipient", kept by the form so they travel with the transfer. */
  choices: AddressChoices;
}) {
  const check = useAddressCheck(cryptoAddress);
  // Keyboard and screen-reader users land on the step they are now on, not on <body>
  // (docs/architecture.md "Design notes").
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // A capital out of place is a typing mistake: said here, before Confirm, not by the server after it.
  const isMistyped = hasWrongChecksum(cryptoAddress);
  // A lookalike of a saved recipient needs the customer's explicit word; the server refuses it otherwise.
  const lookalike = check.data?.lookalike ?? choices.refusedAs;
  // So does an address without a checksum (all small letters): the server refuses it otherwise (decision 044).
  const needsChecksumWord = hasNoChecksum(cryptoAddress) && !choices.isUnchecksummedConfirmed;
  const isBlocked =
    isMistyped ||
    check.isPending ||
    (lookalike != null && !choices.isLookalikeConfirmed) ||
    needsChecksumWord;
  const blockedBy = isMistyped
    ? "checksum-mismatch"
    : lookalike && !choices.isLookalikeConfirmed
      ? "lookalike-warning"
      : needsChecksumWord
        ? "checksum-warning"
        : undefined;
  return (
    <section aria-labelledby="transfer-review-title" className="grid gap-5">
      <div className="grid gap-1">
        <h2
          id="transfer-review-title"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold tracking-tight text-ink focus-visible:outline-none"
        >
          Review your transfer
        </h2>
        <p className="text-sm text-ink-muted">
          Check the address character by character: USDC sent to a wrong address cannot be recovered.
        </p>
      </div>
      <dl className="grid divide-y divide-line rounded-lg border border-line px-4 text-sm">
        <TransferFigureLines amountCents={amountCents} feeCents={feeCents} />
        <SummaryLine label="To">{recipientName}</SummaryLine>
        <div className="grid gap-1 py-2">
          <dt className="text-ink-muted">USDC wallet address</dt>
          <dd className="rounded-md bg-canvas p-3">
            <WalletAddress address={cryptoAddress} />
          </dd>
        </div>
        <SummaryLine label="Remaining today">{limits ? remainingOf(limits) : "—"}</SummaryLine>
      </dl>
      {isMistyped ? (
        <div
          id="checksum-mismatch"
          role="alert"
          className="grid gap-2 rounded-lg border-2 border-negative bg-negative-soft p-4 text-sm text-ink"
        >
          <p className="flex items-start gap-2 font-semibold text-negative">
            <ShieldAlert className="mt-0.5 size-5 shrink-0" aria-hidden />
            This address has a typing mistake
          </p>
          <p>{TRANSFER_MESSAGES.addressChecksumMismatch}</p>
        </div>
      ) : null}
      <AddressWarnings
        check={check}
        recipientName={recipientName}
        cryptoAddress={cryptoAddress}
        choices={choices}
      />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Button type="button" variant="secondary" size="lg" onClick={onBack} disabled={isSending}>
          <ArrowLeft aria-hidden />
          Back to edit
        </Button>
        <Button
          type="button"
          size="lg"
          onClick={onConfirm}
          disabled={isSending || isBlocked}
          aria-describedby={blockedBy}
        >
          {isSending ? <Spinner className="size-4 text-white" label="Sending" /> : <Send aria-hidden />}
          {isSending ? "Sending…" : "Confirm and send"}
        </Button>
      </div>
    </section>
  );
}

/** The confirm dialog's compact copy of the reviewed fields: exactly what a passkey is about to sign. */
export function SignedSummary({
  amountCents,
  feeCents,
  recipientName,
  cryptoAddress,
}: {
  amountCents: number;
  feeCents: number;
  recipientName: string;
  cryptoAddress: string;
}) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg border border-line bg-canvas p-3 text-sm">
      {transferFigures({ amountCents, feeCents }).lines.map((line) => (
        <Fragment key={line.label}>
          <dt className="text-ink-muted">{line.label}</dt>
          <dd className={line.isStrong ? "text-right font-medium tabular-nums" : "text-right tabular-nums"}>
            {line.value}
          </dd>
        </Fragment>
      ))}
      <dt className="text-ink-muted">To</dt>
      <dd className="truncate text-right">{recipientName}</dd>
      <dt className="text-ink-muted">Wallet</dt>
      {/* The whole address, never cut: it is what the proof is about to sign. */}
      <dd className="text-right font-mono text-xs break-all">{cryptoAddress}</dd>
    </dl>
  );
}
