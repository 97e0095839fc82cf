import { Info, Landmark, Wallet } from "lucide-react";
import { TRANSFER_MESSAGES, type TransferLimits, type TransferRequest } from "@/contract/transfers";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { TransferEditForm } from "@/web/features/transfers/components/transfer-edit-form";
import { TransferReview } from "@/web/features/transfers/components/transfer-review";
import { TransferStepUp } from "@/web/features/transfers/components/transfer-step-up";
import type { Method } from "@/web/features/transfers/transfer-fields";
import { useTransferForm } from "@/web/features/transfers/use-transfer-form";

/** Spec §5 send money: the method tabs, then the form or its review step, and the step-up when asked. */
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
              <TransferEditForm form={f} availableCents={availableCents} limits={limits} />
            )}
          </TabsContent>
        </Tabs>
      </CardContent>
      <TransferStepUp form={f} />
    </Card>
  );
}
