import { AlertTriangle, Info, Landmark, Send, Wallet } from "lucide-react";
import { type FormEvent, type ReactNode, useRef, useState } from "react";
import { centsToDecimal, formatMoney, parseMoney } from "@/contract/money";
import type { SecondFactorMethod, SecondFactorProof } from "@/contract/security";
import { CATEGORIES, CATEGORY_KEYS, type Category, guessCategory } from "@/contract/transactions";
import {
  type CreateTransferInput,
  DAILY_LIMIT_CENTS,
  feeFor,
  isUsdcAddress,
  TRANSFER_MESSAGES,
  type TransferLimits,
  type TransferRequest,
} from "@/contract/transfers";
import { describedBy, FormField, focusFieldInError } from "@/web/components/form-field";
import { NativeSelect } from "@/web/components/native-select";
import { StepUpDialog } from "@/web/components/step-up-dialog";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input, Textarea } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { dismissToast, toast } from "@/web/components/ui/use-toast";
import { useCreateTransfer } from "@/web/features/money/api/create-transfer";
import { getTransferPasskeyOptions } from "@/web/features/money/api/get-transfer-passkey-options";
import { grossForNet, netFor } from "@/web/features/money/transfer-math";
import { ApiError, isUnauthorized } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { newIdempotencyKey } from "@/web/lib/idempotency-key";
import { methodsOf } from "@/web/lib/step-up";

type Method = "crypto" | "ach";

interface Fields {
  amount: string;
  net: string;
  recipientName: string;
  cryptoAddress: string;
  purpose: string;
  category: Category | "";
}

const EMPTY: Fields = {
  amount: "",
  net: "",
  recipientName: "",
  cryptoAddress: "",
  purpose: "",
  category: "",
};

/** Spec §5: the toast names what is missing. */
const FIELD_IDS: Record<keyof Fields, string> = {
  amount: "transfer-amount",
  net: "transfer-net",
  recipientName: "transfer-recipient",
  cryptoAddress: "transfer-address",
  purpose: "transfer-purpose",
  category: "transfer-category",
};

const REQUIRED: [keyof Fields, string][] = [
  ["amount", "Amount"],
  ["recipientName", "Recipient Name"],
  ["purpose", "Transfer Purpose"],
  ["cryptoAddress", "USDC Wallet Address"],
];

function MoneyInput({
  id,
  value,
  onChange,
  ...props
}: { id: string; value: string; onChange: (value: string) => void } & Record<
  `aria-${string}`,
  string | boolean | undefined
>) {
  return (
    <div className="relative">
      <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-ink-subtle">
        $
      </span>
      <Input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        className="pl-7 tabular-nums"
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/[^\d.,]/g, ""))}
        {...props}
      />
    </div>
  );
}

function Row({
  label,
  children,
  strong,
  className,
}: {
  label: string;
  children: ReactNode;
  strong?: boolean;
  className?: string;
}) {
  return (
    <div className={cn("flex items-baseline justify-between gap-3", className)}>
      <dt className="text-ink-muted">{label}</dt>
      <dd className={strong ? "font-semibold text-ink tabular-nums" : "text-ink tabular-nums"}>{children}</dd>
    </div>
  );
}

/** The confirm step's prompt, naming only the factors this customer has. */
function confirmPrompt(methods: readonly SecondFactorMethod[]): string {
  const hasPasskey = methods.includes("passkey");
  if (methods.includes("totp")) {
    return hasPasskey
      ? "Enter a code from your authenticator app, or use your passkey, to send this money."
      : "Enter a code from your authenticator app to send this money.";
  }
  if (hasPasskey) {
    return methods.includes("recovery")
      ? "Confirm with your passkey or a recovery code to send this money."
      : "Confirm with your passkey to send this money. It signs this exact amount and address.";
  }
  return "Enter one of your recovery codes to send this money.";
}

/** The existing refusals of a transfer, as toasts or the over-limit note. */
function showTransferError(error: Error, availableCents: number, setOverLimit: (isOver: boolean) => void) {
  if (isUnauthorized(error)) return;
  if (
    error instanceof ApiError &&
    (error.hasFlag("withdrawalLimitExceeded") || /withdrawal limit/i.test(error.message))
  ) {
    setOverLimit(true);
  } else if (error instanceof ApiError && error.hasFlag("insufficientFunds")) {
    const available = error.flags.availableBalance;
    toast({
      title: "Insufficient Funds",
      description: `Your available balance is ${typeof available === "string" ? available : formatMoney(availableCents)}`,
      variant: "destructive",
    });
  } else if (error instanceof ApiError && error.hasFlag("accountSetupIncomplete")) {
    toast({ title: "Feature Unavailable", description: error.message, variant: "destructive" });
  } else {
    toast({
      title: "Transfer Failed",
      description: error.message || "Failed to submit transfer request",
      variant: "destructive",
    });
  }
}

export function TransferForm({
  availableCents,
  limits,
  onSuccess,
}: {
  availableCents: number;
  limits: TransferLimits | undefined;
  onSuccess: (transfer: TransferRequest) => void;
}) {
  const [method, setMethod] = useState<Method>("crypto");
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [isOverLimit, setOverLimit] = useState(false);
  // Inline twins of the spec's toasts, so the field in error says so where the customer is looking.
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const flag = (errors: Partial<Record<keyof Fields, string>>) => {
    setFieldErrors(errors);
    const first = (["amount", "recipientName", "cryptoAddress", "purpose"] as const).find(
      (key) => errors[key],
    );
    if (first) focusFieldInError(FIELD_IDS[first]);
  };
  const invalid = (key: keyof Fields, hint?: boolean) => ({
    "aria-invalid": fieldErrors[key] ? true : undefined,
    "aria-describedby": describedBy(FIELD_IDS[key], { hint, error: fieldErrors[key] }),
  });
  const transfer = useCreateTransfer();
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  // The factors the server offered when it asked for a proof.
  const [stepUpMethods, setStepUpMethods] = useState<SecondFactorMethod[]>([]);
  // One key per submission of these exact fields: a double click or a retry after a lost answer reuses it.
  const idempotencyKey = useRef<string | null>(null);
  const isSubmitting = useRef(false);

  const remainingCents = limits?.remainingTodayCents ?? DAILY_LIMIT_CENTS;
  const amountCents = parseMoney(fields.amount);
  const validAmount = amountCents !== null && amountCents > 0 ? amountCents : null;
  const guessed = guessCategory(fields.purpose);

  const update = (patch: Partial<Fields>) => {
    idempotencyKey.current = null;
    setOverLimit(false);
    setFields((f) => ({ ...f, ...patch }));
    setFieldErrors((errors) => {
      const rest = { ...errors };
      for (const key of Object.keys(patch) as (keyof Fields)[]) delete rest[key];
      if ("net" in patch) delete rest.amount;
      return rest;
    });
  };
  const onAmount = (amount: string) => {
    const cents = parseMoney(amount);
    update({ amount, net: cents !== null && cents > 0 ? centsToDecimal(netFor(cents)) : "" });
  };
  const onNet = (net: string) => {
    const cents = parseMoney(net);
    update({ net, amount: cents !== null && cents > 0 ? centsToDecimal(grossForNet(cents)) : "" });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isSubmitting.current) return;
    const missing = REQUIRED.filter(([key]) => fields[key].trim() === "").map(([, name]) => name);
    if (missing.length > 0) {
      flag(
        Object.fromEntries(
          REQUIRED.filter(([key]) => fields[key].trim() === "").map(([key]) => [
            key,
            "This field is required",
          ]),
        ),
      );
      toast({
        title: "Missing Information",
        description: `Please fill in: ${missing.join(", ")}`,
        variant: "destructive",
      });
      return;
    }
    if (amountCents === null) {
      flag({ amount: TRANSFER_MESSAGES.amountInvalid });
      toast({
        title: "Invalid Amount",
        description: TRANSFER_MESSAGES.amountInvalid,
        variant: "destructive",
      });
      return;
    }
    if (amountCents <= 0) {
      flag({ amount: TRANSFER_MESSAGES.amountPositive });
      toast({
        title: "Invalid Amount",
        description: TRANSFER_MESSAGES.amountPositive,
        variant: "destructive",
      });
      return;
    }
    if (!isUsdcAddress(fields.cryptoAddress.trim())) {
      flag({ cryptoAddress: TRANSFER_MESSAGES.addressInvalid });
      toast({
        title: "Invalid Wallet Address",
        description: TRANSFER_MESSAGES.addressInvalid,
        variant: "destructive",
      });
      return;
    }
    if (amountCents > availableCents) {
      flag({ amount: `Insufficient funds: your available balance is ${formatMoney(availableCents)}` });
      toast({
        title: "Insufficient Funds",
        description: `Your available balance is ${formatMoney(availableCents)}`,
        variant: "destructive",
      });
      return;
    }
    if (amountCents > DAILY_LIMIT_CENTS || amountCents > remainingCents) {
      setOverLimit(true);
      return;
    }

    // With a second factor on, the server answers 403 stepUpRequired (writing nothing) with the methods to
    // offer, and the confirm step asks for one; the proof then travels in this transfer's own body.
    void send(amountCents);
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
  });

  /** Sends the transfer; a wrong second-factor code is thrown back to the confirm dialog, which shows it. */
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
            onSuccess(data.transferRequest);
            resolve();
          },
          onError: (error) => {
            // A definite refusal ends this submission; a lost answer keeps the key so a retry cannot double-send.
            if (error instanceof ApiError && error.status < 500) idempotencyKey.current = null;
            if (error instanceof ApiError && error.hasFlag("secondFactorInvalid") && secondFactor) {
              reject(error);
              return;
            }
            if (error instanceof ApiError && error.hasFlag("stepUpRequired")) {
              setStepUpMethods(methodsOf(error));
              setConfirmOpen(true);
              resolve();
              return;
            }
            setConfirmOpen(false);
            resolve();
            showTransferError(error, availableCents, setOverLimit);
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
    });
  };

  const fee = validAmount !== null ? feeFor(validAmount) : 0;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Send Money</CardTitle>
        <CardDescription>Send USDC to any wallet. 1 USD = 1 USDC, with a flat 2% fee.</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs value={method} onValueChange={(v) => setMethod(v as Method)}>
          <TabsList aria-label="Transfer method">
            <TabsTrigger value="crypto">
              <Wallet aria-hidden />
              USDC (Crypto)
            </TabsTrigger>
            <TabsTrigger value="ach">
              <Landmark aria-hidden />
              ACH Bank Transfer
            </TabsTrigger>
          </TabsList>

          <TabsContent value="ach">
            <div
              className="grid justify-items-start gap-3 rounded-lg border border-line bg-canvas p-4"
              role="note"
            >
              <p className="flex items-start gap-2 text-sm text-ink">
                <Info className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden />
                <span>
                  <span className="font-semibold">Feature Unavailable: </span>
                  {TRANSFER_MESSAGES.achUnavailable}
                </span>
              </p>
              <Button variant="secondary" size="sm" onClick={() => setMethod("crypto")}>
                Use USDC transfer
              </Button>
            </div>
          </TabsContent>

          <TabsContent value="crypto">
            <form noValidate onSubmit={onSubmit} className="grid gap-5">
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField
                  id="transfer-amount"
                  label="Amount (USD)"
                  hint="Step $0.01. The 2% fee is included."
                  error={fieldErrors.amount}
                >
                  <MoneyInput
                    id="transfer-amount"
                    value={fields.amount}
                    onChange={onAmount}
                    {...invalid("amount", true)}
                  />
                </FormField>
                <FormField id="transfer-net" label="Recipient gets (USDC)" hint="Amount minus the 2% fee.">
                  <MoneyInput
                    id="transfer-net"
                    value={fields.net}
                    onChange={onNet}
                    aria-describedby="transfer-net-hint"
                  />
                </FormField>
              </div>

              <dl className="grid gap-2 rounded-lg bg-canvas p-4 text-sm" aria-live="polite">
                <Row label="Available balance">{formatMoney(availableCents)}</Row>
                <Row label="Transfer fee (2%)">{validAmount !== null ? `−${formatMoney(fee)}` : "$0.00"}</Row>
                <Row label="Recipient gets" strong>
                  {validAmount !== null ? `${formatMoney(validAmount - fee)} USDC` : "—"}
                </Row>
                {/* A <dl> may only hold dt/dd groups in divs, so the divider is the row's own border. */}
                <Row label="Remaining today" className="border-t border-line pt-2">
                  {limits
                    ? `${limits.remainingToday} of ${limits.dailyLimit}`
                    : formatMoney(DAILY_LIMIT_CENTS)}
                </Row>
              </dl>

              {isOverLimit ? (
                <div
                  role="alert"
                  className="grid gap-1 rounded-lg border border-negative/30 bg-negative-soft p-4 text-sm text-negative"
                >
                  <p className="flex items-center gap-2 font-semibold">
                    <AlertTriangle className="size-4 shrink-0" aria-hidden />
                    Daily Withdrawal Limit Exceeded
                  </p>
                  <p>
                    You can send up to {formatMoney(DAILY_LIMIT_CENTS)} a day.{" "}
                    {limits ? `You have ${limits.remainingToday} left today.` : null}
                  </p>
                </div>
              ) : null}

              <FormField id="transfer-recipient" label="Recipient Name" error={fieldErrors.recipientName}>
                <Input
                  id="transfer-recipient"
                  {...invalid("recipientName")}
                  autoComplete="off"
                  maxLength={100}
                  value={fields.recipientName}
                  onChange={(e) => update({ recipientName: e.target.value })}
                />
              </FormField>
              <FormField
                id="transfer-address"
                label="USDC Wallet Address"
                hint="An Ethereum address (0x followed by 40 characters) or a Solana address."
                error={fieldErrors.cryptoAddress}
              >
                <Input
                  id="transfer-address"
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={100}
                  placeholder="0x…"
                  className="font-mono"
                  value={fields.cryptoAddress}
                  onChange={(e) => update({ cryptoAddress: e.target.value })}
                  {...invalid("cryptoAddress", true)}
                />
              </FormField>
              <FormField id="transfer-purpose" label="Transfer Purpose" error={fieldErrors.purpose}>
                <Textarea
                  id="transfer-purpose"
                  {...invalid("purpose")}
                  maxLength={200}
                  placeholder="e.g. Dinner with friends"
                  value={fields.purpose}
                  onChange={(e) => update({ purpose: e.target.value })}
                />
              </FormField>
              <FormField
                id="transfer-category"
                label="Category"
                hint={fields.category ? undefined : "Guessed from the purpose unless you choose one."}
              >
                <NativeSelect
                  id="transfer-category"
                  value={fields.category}
                  onChange={(e) => update({ category: e.target.value as Category | "" })}
                >
                  <option value="">Auto: {CATEGORIES[guessed].label}</option>
                  {CATEGORY_KEYS.map((key) => (
                    <option key={key} value={key}>
                      {CATEGORIES[key].label}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>

              <Button
                type="submit"
                size="lg"
                disabled={transfer.isPending}
                className="w-full sm:w-auto sm:justify-self-start"
              >
                {transfer.isPending ? (
                  <Spinner className="size-4 text-white" label="Sending" />
                ) : (
                  <Send aria-hidden />
                )}
                {transfer.isPending
                  ? "Sending…"
                  : validAmount !== null
                    ? `Send ${formatMoney(validAmount)}`
                    : "Send Money"}
              </Button>
            </form>
          </TabsContent>
        </Tabs>
      </CardContent>
      <StepUpDialog
        open={isConfirmOpen}
        onOpenChange={setConfirmOpen}
        methods={stepUpMethods}
        title="Confirm this transfer"
        description={confirmPrompt(stepUpMethods)}
        submitLabel="Confirm and send"
        getPasskeyOptions={transferPasskeyOptions}
        onProof={(proof) => send(amountCents ?? 0, proof)}
      >
        {validAmount !== null ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg border border-line bg-canvas p-3 text-sm">
            <dt className="text-ink-muted">Amount</dt>
            <dd className="text-right font-medium tabular-nums">{formatMoney(validAmount)}</dd>
            <dt className="text-ink-muted">Fee (2%)</dt>
            <dd className="text-right tabular-nums">{formatMoney(fee)}</dd>
            <dt className="text-ink-muted">Recipient gets</dt>
            <dd className="text-right tabular-nums">{formatMoney(validAmount - fee)} USDC</dd>
            <dt className="text-ink-muted">To</dt>
            <dd className="truncate text-right">{fields.recipientName.trim()}</dd>
            <dt className="text-ink-muted">Wallet</dt>
            {/* The whole address, never cut: it is what the proof is about to sign. */}
            <dd className="text-right font-mono text-xs break-all">{fields.cryptoAddress.trim()}</dd>
          </dl>
        ) : null}
      </StepUpDialog>
    </Card>
  );
}
