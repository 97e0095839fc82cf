import { AlertTriangle, Info, Landmark, Send, Wallet } from "lucide-react";
import type { ReactNode } from "react";
import { formatMoney } from "@/contract/money";
import type { SecondFactorMethod } from "@/contract/security";
import { CATEGORIES, CATEGORY_KEYS, type Category } from "@/contract/transactions";
import {
  DAILY_LIMIT_CENTS,
  TRANSFER_MESSAGES,
  type TransferLimits,
  type TransferRequest,
} from "@/contract/transfers";
import { FormField } from "@/web/components/form-field";
import { NativeSelect } from "@/web/components/native-select";
import { StepUpDialog } from "@/web/components/step-up-dialog";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input, Textarea } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { RecipientPicker } from "@/web/features/transfers/components/recipient-picker";
import { SignedSummary, TransferReview } from "@/web/features/transfers/components/transfer-review";
import { type Method, useTransferForm } from "@/web/features/transfers/use-transfer-form";
import { cn } from "@/web/lib/cn";

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

export function TransferForm({
  availableCents,
  limits,
  onSuccess,
}: {
  availableCents: number;
  limits: TransferLimits | undefined;
  onSuccess: (transfer: TransferRequest) => void;
}) {
  const f = useTransferForm({ availableCents, limits, onSuccess });
  const { fields } = f;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Send Money</CardTitle>
        <CardDescription>Send USDC to any wallet. 1 USD = 1 USDC, with a flat 2% fee.</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs value={f.method} onValueChange={(v) => f.setMethod(v as Method)}>
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
              <Button variant="secondary" size="sm" onClick={() => f.setMethod("crypto")}>
                Use USDC transfer
              </Button>
            </div>
          </TabsContent>

          <TabsContent value="crypto">
            {f.isReviewing && f.validAmount !== null ? (
              <TransferReview
                amountCents={f.validAmount}
                feeCents={f.fee}
                recipientName={fields.recipientName.trim()}
                cryptoAddress={fields.cryptoAddress.trim()}
                limits={limits}
                isSending={f.isSending}
                onBack={f.backToEdit}
                onConfirm={f.confirm}
                choices={f.choices}
              />
            ) : (
              <form noValidate onSubmit={f.onSubmit} className="grid gap-5">
                <div className="grid gap-4 sm:grid-cols-2">
                  <FormField
                    id="transfer-amount"
                    label="Amount (USD)"
                    hint="Step $0.01. The 2% fee is included."
                    error={f.fieldErrors.amount}
                  >
                    <MoneyInput
                      id="transfer-amount"
                      value={fields.amount}
                      onChange={f.onAmount}
                      {...f.invalid("amount", true)}
                    />
                  </FormField>
                  <FormField id="transfer-net" label="Recipient gets (USDC)" hint="Amount minus the 2% fee.">
                    <MoneyInput
                      id="transfer-net"
                      value={fields.net}
                      onChange={f.onNet}
                      aria-describedby="transfer-net-hint"
                    />
                  </FormField>
                </div>

                <dl className="grid gap-2 rounded-lg bg-canvas p-4 text-sm" aria-live="polite">
                  <Row label="Available balance">{formatMoney(availableCents)}</Row>
                  <Row label="Transfer fee (2%)">
                    {f.validAmount !== null ? `−${formatMoney(f.fee)}` : "$0.00"}
                  </Row>
                  <Row label="Recipient gets" strong>
                    {f.validAmount !== null ? `${formatMoney(f.validAmount - f.fee)} USDC` : "—"}
                  </Row>
                  {/* A <dl> may only hold dt/dd groups in divs, so the divider is the row's own border. */}
                  <Row label="Remaining today" className="border-t border-line pt-2">
                    {limits
                      ? `${limits.remainingToday} of ${limits.dailyLimit}`
                      : formatMoney(DAILY_LIMIT_CENTS)}
                  </Row>
                </dl>

                {f.isOverLimit ? (
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

                <RecipientPicker address={fields.cryptoAddress} onPick={f.pickRecipient} />
                <FormField id="transfer-recipient" label="Recipient Name" error={f.fieldErrors.recipientName}>
                  <Input
                    id="transfer-recipient"
                    {...f.invalid("recipientName")}
                    autoComplete="off"
                    maxLength={100}
                    value={fields.recipientName}
                    onChange={(e) => f.update({ recipientName: e.target.value })}
                  />
                </FormField>
                <FormField
                  id="transfer-address"
                  label="USDC Wallet Address"
                  hint="An Ethereum address (0x followed by 40 characters) or a Solana address."
                  error={f.fieldErrors.cryptoAddress}
                >
                  <Input
                    id="transfer-address"
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={100}
                    placeholder="0x…"
                    className="font-mono"
                    value={fields.cryptoAddress}
                    onChange={(e) => f.update({ cryptoAddress: e.target.value })}
                    {...f.invalid("cryptoAddress", true)}
                  />
                </FormField>
                <FormField id="transfer-purpose" label="Transfer Purpose" error={f.fieldErrors.purpose}>
                  <Textarea
                    id="transfer-purpose"
                    {...f.invalid("purpose")}
                    maxLength={200}
                    placeholder="e.g. Dinner with friends"
                    value={fields.purpose}
                    onChange={(e) => f.update({ purpose: e.target.value })}
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
                    onChange={(e) => f.update({ category: e.target.value as Category | "" })}
                  >
                    <option value="">Auto: {CATEGORIES[f.guessed].label}</option>
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
                  disabled={f.isSending}
                  className="w-full sm:w-auto sm:justify-self-start"
                >
                  {f.isSending ? (
                    <Spinner className="size-4 text-white" label="Sending" />
                  ) : (
                    <Send aria-hidden />
                  )}
                  {f.isSending
                    ? "Sending…"
                    : f.validAmount !== null
                      ? `Send ${formatMoney(f.validAmount)}`
                      : "Send Money"}
                </Button>
              </form>
            )}
          </TabsContent>
        </Tabs>
      </CardContent>
      <StepUpDialog
        open={f.stepUp.open}
        onOpenChange={f.stepUp.onOpenChange}
        methods={f.stepUp.methods}
        title="Confirm this transfer"
        description={confirmPrompt(f.stepUp.methods)}
        submitLabel="Confirm and send"
        getPasskeyOptions={f.stepUp.getPasskeyOptions}
        onProof={f.stepUp.onProof}
      >
        {f.validAmount !== null ? (
          <SignedSummary
            amountCents={f.validAmount}
            feeCents={f.fee}
            recipientName={fields.recipientName.trim()}
            cryptoAddress={fields.cryptoAddress.trim()}
          />
        ) : null}
      </StepUpDialog>
    </Card>
  );
}
