import { Send } from "lucide-react";
import { formatMoney } from "@/contract/money";
import { CATEGORIES, CATEGORY_KEYS, type Category } from "@/contract/transaction-categories";
import type { TransferLimits } from "@/contract/transfers";
import { FormField } from "@/web/components/form-field";
import { MoneyField } from "@/web/components/money-input";
import { NativeSelect } from "@/web/components/native-select";
import { Button } from "@/web/components/ui/button";
import { Input, Textarea } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { RecipientPicker } from "@/web/features/transfers/components/recipient-picker";
import { OverLimitNote, TransferTotals } from "@/web/features/transfers/components/transfer-totals";
import type { TransferFormState } from "@/web/features/transfers/use-transfer-form";

/** The send-money fields, before the review step: amount and net kept in sync, the totals, the recipient. */
export function TransferEditForm({
  form: f,
  availableCents,
  limits,
}: {
  form: TransferFormState;
  availableCents: number;
  limits: TransferLimits | undefined;
}) {
  const { fields } = f;
  return (
    <form noValidate onSubmit={f.onSubmit} className="grid gap-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <MoneyField
          id="transfer-amount"
          label="Amount (USD)"
          hint="Step $0.01. The 2% fee is included."
          value={fields.amount}
          onChange={f.onAmount}
          error={f.fieldErrors.amount}
        />
        <MoneyField
          id="transfer-net"
          label="Recipient gets (USDC)"
          hint="Amount minus the 2% fee."
          value={fields.net}
          onChange={f.onNet}
        />
      </div>

      <TransferTotals
        availableCents={availableCents}
        validAmount={f.validAmount}
        fee={f.fee}
        limits={limits}
      />

      {f.isOverLimit ? <OverLimitNote limits={limits} /> : null}

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
        {f.isSending ? <Spinner className="size-4 text-white" label="Sending" /> : <Send aria-hidden />}
        {f.isSending
          ? "Sending…"
          : f.validAmount !== null
            ? `Send ${formatMoney(f.validAmount)}`
            : "Send Money"}
      </Button>
    </form>
  );
}
