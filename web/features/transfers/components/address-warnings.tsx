import type { UseQueryResult } from "@tanstack/react-query";
import { AlertTriangle, BookUser, Info, ShieldAlert } from "lucide-react";
import { type AddressCheck, RECIPIENT_MESSAGES } from "@/contract/recipients";
import { hasNoChecksum } from "@/contract/transfers";
import { Checkbox } from "@/web/components/ui/checkbox";
import { Label } from "@/web/components/ui/label";
import { WalletAddress } from "@/web/components/wallet-address";

export interface AddressChoices {
  isLookalikeConfirmed: boolean;
  setLookalikeConfirmed: (isConfirmed: boolean) => void;
  /** An address without a checksum (all small letters) compared by the customer (decision 044). */
  isUnchecksummedConfirmed: boolean;
  setUnchecksummedConfirmed: (isConfirmed: boolean) => void;
  isSaving: boolean;
  setSaving: (isSaving: boolean) => void;
  /** The saved recipient the server named when it refused the transfer as a lookalike (the check may lag). */
  refusedAs: { name: string; address?: string } | null;
}

/**
 * What the review step knows about the address: saved as whom, the first payment to it, or — loudest — a
 * lookalike of a saved recipient's address, which needs an explicit confirmation before Send is enabled.
 */
export function AddressWarnings({
  check,
  recipientName,
  cryptoAddress,
  choices,
}: {
  check: UseQueryResult<AddressCheck>;
  recipientName: string;
  cryptoAddress: string;
  choices: AddressChoices;
}) {
  if (check.isPending) {
    return (
      <p className="text-sm text-ink-muted" aria-live="polite">
        Checking this address against your saved recipients…
      </p>
    );
  }
  const lookalike = check.data?.lookalike ?? choices.refusedAs;
  const saved = check.data?.savedRecipient ?? null;
  return (
    <div className="grid gap-3" aria-live="polite">
      {check.isError ? (
        <p className="flex items-start gap-2 rounded-lg bg-pending-soft p-3 text-sm text-ink">
          <Info className="mt-0.5 size-4 shrink-0 text-pending" aria-hidden />
          We couldn't check this address against your saved recipients. Compare every character before you
          send.
        </p>
      ) : null}
      {lookalike ? (
        <div
          id="lookalike-warning"
          role="alert"
          className="grid gap-3 rounded-lg border-2 border-negative bg-negative-soft p-4 text-sm text-ink"
        >
          <p className="flex items-start gap-2 font-semibold text-negative">
            <ShieldAlert className="mt-0.5 size-5 shrink-0" aria-hidden />
            Not the address you saved for {lookalike.name}
          </p>
          <p>{RECIPIENT_MESSAGES.lookalike(lookalike.name)}</p>
          {lookalike.address ? (
            <div className="grid gap-1">
              <p className="text-xs font-medium text-ink-muted">Saved address for {lookalike.name}</p>
              <p className="rounded-md bg-surface p-2">
                <WalletAddress address={lookalike.address} />
              </p>
            </div>
          ) : null}
          <div className="flex items-start gap-3">
            <Checkbox
              id="confirm-lookalike"
              className="mt-0.5"
              checked={choices.isLookalikeConfirmed}
              onCheckedChange={(value) => choices.setLookalikeConfirmed(value === true)}
            />
            <Label htmlFor="confirm-lookalike" className="leading-snug">
              I checked this address with the recipient. It is not {lookalike.name}'s saved address, and I
              want to send to it.
            </Label>
          </div>
        </div>
      ) : null}
      {hasNoChecksum(cryptoAddress) ? (
        <div
          id="checksum-warning"
          role="alert"
          className="grid gap-3 rounded-lg border border-pending/40 bg-pending-soft p-4 text-sm text-ink"
        >
          <p className="flex items-start gap-2 font-semibold">
            <AlertTriangle className="mt-0.5 size-5 shrink-0 text-pending" aria-hidden />
            This address has no checksum
          </p>
          <p>
            It is written in small letters only, so a typing mistake in it cannot be caught. Compare every
            character with the address the recipient's wallet shows, or copy it again from there.
          </p>
          <div className="flex items-start gap-3">
            <Checkbox
              id="confirm-unchecksummed"
              className="mt-0.5"
              checked={choices.isUnchecksummedConfirmed}
              onCheckedChange={(value) => choices.setUnchecksummedConfirmed(value === true)}
            />
            <Label htmlFor="confirm-unchecksummed" className="leading-snug">
              I compared every character with the recipient's wallet, and this address is right.
            </Label>
          </div>
        </div>
      ) : null}
      {saved ? (
        <p className="flex items-start gap-2 rounded-lg bg-brand-50 p-3 text-sm text-ink">
          <BookUser className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden />
          <span>
            Saved recipient: <span className="font-semibold">{saved.name}</span>
          </span>
        </p>
      ) : null}
      {check.data?.isFirstPayment && !lookalike ? (
        <p className="flex items-start gap-2 rounded-lg bg-pending-soft p-3 text-sm text-ink">
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-pending" aria-hidden />
          <span className="font-medium">{RECIPIENT_MESSAGES.firstPayment}</span>
        </p>
      ) : null}
      {check.data && !saved ? (
        <div className="flex items-start gap-3">
          <Checkbox
            id="save-recipient"
            className="mt-0.5"
            checked={choices.isSaving}
            onCheckedChange={(value) => choices.setSaving(value === true)}
          />
          <Label htmlFor="save-recipient" className="leading-snug font-normal">
            Save {recipientName} to my saved recipients
          </Label>
        </div>
      ) : null}
    </div>
  );
}
