import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { centsToDecimal, formatMoney, parseMoney } from "@/contract/money";
import { RECIPIENT_NAME_MAX, type SavedRecipient } from "@/contract/recipients";
import type { SecondFactorMethod, SecondFactorProof } from "@/contract/security";
import { guessCategory } from "@/contract/transaction-categories";
import {
  type CreateTransferInput,
  DAILY_LIMIT_CENTS,
  feeFor,
  type TransferLimits,
  type TransferRequest,
} from "@/contract/transfers";
import { fieldAria, focusFieldInError } from "@/web/components/form-field";
import { dismissFieldToast, toastFieldError } from "@/web/components/toast-error";
import { dismissToast, toast } from "@/web/components/ui/use-toast";
import { refreshRecipients, saveRecipient } from "@/web/features/recipients/api/save-recipient";
import { useCreateTransfer } from "@/web/features/transfers/api/create-transfer";
import { getTransferPasskeyOptions } from "@/web/features/transfers/api/get-transfer-passkey-options";
import {
  EMPTY_FIELDS,
  FIELD_IDS,
  type FieldErrors,
  type Fields,
  firstProblem,
  type Method,
} from "@/web/features/transfers/transfer-fields";
import { grossForNet, netFor } from "@/web/features/transfers/transfer-math";
import { ApiError, failureOf, isUnauthorized, type ReasonOf, unhandledReason } from "@/web/lib/api";
import { newIdempotencyKey } from "@/web/lib/idempotency-key";
import { readAmount } from "@/web/lib/read-amount";
import { methodsOf } from "@/web/lib/step-up";

/** What the form does with a refused transfer: every reason the endpoint's contract names is decided here. */
type TransferRefusal =
  | "proof-wrong"
  | "step-up"
  | "lookalike"
  | "unchecksummed"
  | "over-limit"
  | "funds"
  | "setup"
  | "message";

function transferRefusal(reason: ReasonOf<"POST /api/transfer/request"> | undefined): TransferRefusal {
  switch (reason) {
    case "second_factor_invalid":
      return "proof-wrong";
    case "step_up_required":
      return "step-up";
    case "lookalike_address":
      return "lookalike";
    case "unchecksummed_address":
      return "unchecksummed";
    case "daily_limit":
    case "personal_daily_limit":
      return "over-limit";
    case "insufficient_funds":
      return "funds";
    case "setup_incomplete":
      return "setup";
    case "second_factor_locked":
    case "account_frozen":
    case "account_closed":
    case "staff_account":
    case "daily_count_limit":
    case "idempotency_key_required":
    case "address_checksum_mismatch":
    case "sends_blocked":
    case "transfer_under_review":
    case "name_characters_invalid":
    case "service_unavailable":
    case undefined:
      return "message";
    default:
      return unhandledReason(reason, "message");
  }
}

/** The existing refusals of a transfer, as toasts or the over-limit note. */
function showTransferError(
  error: Error,
  refusal: TransferRefusal,
  availableCents: number,
  setOverLimit: (isOver: boolean) => void,
) {
  if (isUnauthorized(error)) return;
  if (refusal === "over-limit") {
    setOverLimit(true);
  } else if (error instanceof ApiError && refusal === "funds") {
    const available = error.flags.availableBalance;
    toast({
      title: "Insufficient Funds",
      description: `Your available balance is ${typeof available === "string" ? available : formatMoney(availableCents)}`,
      variant: "destructive",
    });
  } else if (refusal === "setup") {
    toast({ title: "Feature Unavailable", description: error.message, variant: "destructive" });
  } else {
    toast({
      title: "Transfer Failed",
      description: error.message || "Failed to submit transfer request",
      variant: "destructive",
    });
  }
}

/**
 * The send-money form's state and rules: fields that keep amount and net in sync, validation, the review
 * step, and sending with one idempotency key per reviewed transfer (and the step-up proof when asked).
 */
export function useTransferForm({
  availableCents,
  limits,
  onReview,
  onSuccess,
}: {
  availableCents: number;
  limits: TransferLimits | undefined;
  onReview: (message: string) => void;
  onSuccess: (transfer: TransferRequest) => void;
}) {
  const [method, setMethod] = useState<Method>("crypto");
  const [fields, setFields] = useState<Fields>(EMPTY_FIELDS);
  const [isOverLimit, setOverLimit] = useState(false);
  const [isReviewing, setReviewing] = useState(false);
  // Inline twins of the spec's toasts, so the field in error says so where the customer is looking.
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const invalid = (key: keyof Fields, hint?: boolean) =>
    fieldAria(FIELD_IDS[key], { hint, error: fieldErrors[key] });
  const transfer = useCreateTransfer();
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  // The factors the server offered when it asked for a proof.
  const [stepUpMethods, setStepUpMethods] = useState<SecondFactorMethod[]>([]);
  // One key per submission of these exact fields: a double click or a retry after a lost answer reuses it.
  const idempotencyKey = useRef<string | null>(null);
  const isSubmitting = useRef(false);
  // The review step's choices: both belong to these exact fields, so any edit clears them.
  const [isLookalikeConfirmed, setLookalikeConfirmed] = useState(false);
  const [isUnchecksummedConfirmed, setUnchecksummedConfirmed] = useState(false);
  const [isSaving, setSaving] = useState(false);
  const [refusedAs, setRefusedAs] = useState<{ name: string } | null>(null);
  const queryClient = useQueryClient();

  // The lower of the bank's and the customer's own: what the gate will still pass today.
  const remainingCents = limits?.effectiveRemainingTodayCents ?? DAILY_LIMIT_CENTS;
  const amountCents = parseMoney(fields.amount);
  const validAmount = amountCents !== null && amountCents > 0 ? amountCents : null;
  const fee = validAmount !== null ? feeFor(validAmount) : 0;
  const guessed = guessCategory(fields.purpose);

  const update = (patch: Partial<Fields>) => {
    idempotencyKey.current = null;
    setOverLimit(false);
    setLookalikeConfirmed(false);
    setUnchecksummedConfirmed(false);
    setSaving(false);
    setRefusedAs(null);
    setFields((f) => ({ ...f, ...patch }));
    dismissFieldToast();
    setFieldErrors((errors) => {
      const rest = { ...errors };
      for (const key of Object.keys(patch) as (keyof Fields)[]) delete rest[key];
      if ("net" in patch) delete rest.amount;
      return rest;
    });
  };
  // Each field keeps what was typed; the other follows only from an amount it can read.
  const onAmount = (amount: string) => {
    const { cents } = readAmount(amount);
    update({ amount, net: cents !== null ? centsToDecimal(netFor(cents)) : "" });
  };
  const onNet = (net: string) => {
    const { cents } = readAmount(net);
    update({ net, amount: cents !== null ? centsToDecimal(grossForNet(cents)) : "" });
  };

  /** Valid fields open the review step; nothing is sent until the customer confirms there. */
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isSubmitting.current) return;
    const problem = firstProblem(fields, amountCents, availableCents);
    if (problem) {
      setFieldErrors(problem.errors);
      const first = (["amount", "recipientName", "cryptoAddress", "purpose"] as const).find(
        (key) => problem.errors[key],
      );
      if (first) focusFieldInError(FIELD_IDS[first]);
      toastFieldError({ title: problem.title, description: problem.description });
      return;
    }
    if (amountCents === null) return;
    if (amountCents > DAILY_LIMIT_CENTS || amountCents > remainingCents) {
      setOverLimit(true);
      return;
    }
    setReviewing(true);
    onReview(
      `Review your transfer: ${formatMoney(amountCents)} to ${fields.recipientName.trim()}. Nothing is sent until you confirm.`,
    );
  };

  const inputFor = (cents: number): CreateTransferInput => ({
    amount: Number(centsToDecimal(cents)),
    recipientName: fields.recipientName.trim(),
    // A crypto transfer has no bank account; the wallet address travels in cryptoAddress.
    recipientAccount: null,
    recipientRouting: "CRYPTO",
    purpose: fields.purpose.trim(),
    category: fields.category || guessed,
    paymentMethod: "crypto",
    cryptoAddress: fields.cryptoAddress.trim(),
    ...(isLookalikeConfirmed ? { confirmLookalikeAddress: true } : {}),
    ...(isUnchecksummedConfirmed ? { confirmUnchecksummedAddress: true } : {}),
  });

  /** "Save this recipient" on the review step: saved once the transfer went through, never before. */
  const saveAfterSending = () => {
    if (!isSaving) return;
    const name = fields.recipientName.trim().slice(0, RECIPIENT_NAME_MAX).trim();
    // A plain promise, not a mutation hook: the form unmounts for the success screen before this answers.
    saveRecipient({ name, address: fields.cryptoAddress.trim() }).then(
      () => {
        refreshRecipients(queryClient);
        toast({ title: "Recipient saved", description: name });
      },
      (error: unknown) => {
        if (isUnauthorized(error) || failureOf("POST /api/recipients", error) === "duplicate_recipient")
          return;
        toast({
          title: "Recipient not saved",
          description: error instanceof Error ? error.message : "Please try again",
          variant: "destructive",
        });
      },
    );
  };

  /**
   * Sends the transfer. With a second factor on, the server answers 403 stepUpRequired (writing nothing) and
   * the confirm dialog asks for a proof, which then travels in this transfer's own body; a wrong code is
   * thrown back to the dialog, which shows it.
   */
  const send = (cents: number, secondFactor?: SecondFactorProof) =>
    new Promise<void>((resolve, reject) => {
      if (isSubmitting.current) return resolve();
      idempotencyKey.current ??= newIdempotencyKey();
      isSubmitting.current = true;
      transfer.mutate(
        { idempotencyKey: idempotencyKey.current, input: { ...inputFor(cents), secondFactor } },
        {
          onSuccess: (data) => {
            dismissToast();
            setConfirmOpen(false);
            saveAfterSending();
            onSuccess(data.transferRequest);
            resolve();
          },
          onError: (error) => {
            // A definite refusal ends this submission; a lost answer keeps the key so a retry cannot double-send.
            if (error instanceof ApiError && error.status < 500) idempotencyKey.current = null;
            const refusal = transferRefusal(failureOf("POST /api/transfer/request", error));
            if (refusal === "proof-wrong" && secondFactor) {
              reject(error);
              return;
            }
            if (refusal === "step-up") {
              setStepUpMethods(methodsOf(error));
              setConfirmOpen(true);
              resolve();
              return;
            }
            setConfirmOpen(false);
            if (error instanceof ApiError && refusal === "lookalike") {
              // The book changed since the check (or the check failed): stay on the review and ask.
              const name = error.flags.lookalikeRecipientName;
              setRefusedAs({ name: typeof name === "string" ? name : "a saved recipient" });
              setLookalikeConfirmed(false);
              resolve();
              return;
            }
            if (refusal === "unchecksummed") {
              // The review step asks for this confirmation itself; stay there so the customer gives it.
              setUnchecksummedConfirmed(false);
              resolve();
              return;
            }
            // Back to the form, where the refusal (limit, funds) can be fixed.
            setReviewing(false);
            resolve();
            showTransferError(error, refusal, availableCents, setOverLimit);
          },
          onSettled: () => {
            isSubmitting.current = false;
          },
        },
      );
    });

  const transferPasskeyOptions = () => {
    idempotencyKey.current ??= newIdempotencyKey();
    return getTransferPasskeyOptions({
      amount: Number(centsToDecimal(amountCents ?? 0)),
      recipientName: fields.recipientName.trim(),
      cryptoAddress: fields.cryptoAddress.trim(),
      idempotencyKey: idempotencyKey.current,
      ...(isLookalikeConfirmed ? { confirmLookalikeAddress: true } : {}),
      ...(isUnchecksummedConfirmed ? { confirmUnchecksummedAddress: true } : {}),
    });
  };

  return {
    method,
    setMethod,
    fields,
    update,
    onAmount,
    onNet,
    onSubmit,
    isOverLimit,
    validAmount,
    fee,
    guessed,
    fieldErrors,
    invalid,
    isReviewing,
    backToEdit: () => {
      setReviewing(false);
      // The review's buttons go with it: focus returns to the first field rather than to <body>.
      focusFieldInError(FIELD_IDS.amount);
    },
    /** A saved recipient picked in the form fills both fields it knows. */
    pickRecipient: (recipient: SavedRecipient) =>
      update({ recipientName: recipient.name, cryptoAddress: recipient.address }),
    choices: {
      isLookalikeConfirmed,
      setLookalikeConfirmed,
      isUnchecksummedConfirmed,
      setUnchecksummedConfirmed,
      isSaving,
      setSaving,
      refusedAs,
    },
    confirm: () => void send(amountCents ?? 0),
    isSending: transfer.isPending,
    stepUp: {
      open: isConfirmOpen,
      onOpenChange: setConfirmOpen,
      methods: stepUpMethods,
      getPasskeyOptions: transferPasskeyOptions,
      onProof: (proof: SecondFactorProof) => send(amountCents ?? 0, proof),
    },
  };
}

export type TransferFormState = ReturnType<typeof useTransferForm>;
