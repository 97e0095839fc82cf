import { Info, Landmark, Wallet } from "lucide-react";
import type { SelfLimits } from "@/contract/self-limits";
import { TRANSFER_MESSAGES, type TransferLimits, type TransferRequest } from "@/contract/transfers";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/web/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { SendsBlockedBanner } from "@/web/features/transfers/components/sends-blocked-banner";
import { TransferEditForm } from "@/web/features/transfers/components/transfer-edit-form";
import { TransferReview } from "@/web/features/transfers/components/transfer-review";
import { TransferStepUp } from "@/web/features/transfers/components/transfer-step-up";
import type { Method } from "@/web/features/transfers/transfer-fields";
import { useTransferForm } from "@/web/features/transfers/use-transfer-form";

// Two equal columns whose labels wrap: "ACH Bank Transfer" was cut to "ACH Bank Tran" at 375 px.
const TAB_LIST = "grid w-full grid-cols-2";
const TAB = "h-auto min-h-9 min-w-0 whitespace-normal text-center leading-tight";

/**
 * Send money: the page's title, the method tabs, then the form or its review step, and the step-up when
 * asked; while the customer's own block holds, the banner instead of a form the server would refuse.
 */
export function TransferForm({
  availableCents,
  limits,
  selfLimits,
  onReview,
  onSuccess,
}: {
  availableCents: number;
  limits: TransferLimits | undefined;
  selfLimits: SelfLimits | undefined;
  /** Said in the page's live region when the review step opens. */
  onReview: (message: string) => void;
  onSuccess: (transfer: TransferRequest) => void;
}) {
  const f = useTransferForm({ availableCents, limits, onReview, onSuccess });
  const { fields } = f;

  return (
    <Card>
      <CardHeader>
        <h1 className="text-base font-semibold leading-tight text-ink">Send Money</h1>
        <CardDescription>Send USDC to any wallet. 1 USD = 1 USDC, with a flat 2% fee.</CardDescription>
      </CardHeader>
      <CardContent>
        {selfLimits?.sendsBlocked ? (
          <SendsBlockedBanner limits={selfLimits} />
        ) : (
          <Tabs value={f.method} onValueChange={(v) => f.setMethod(v as Method)}>
            <TabsList aria-label="Transfer method" className={TAB_LIST}>
              <TabsTrigger value="crypto" className={TAB}>
                <Wallet aria-hidden />
                USDC (Crypto)
              </TabsTrigger>
              <TabsTrigger value="ach" className={TAB}>
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
        )}
      </CardContent>
      <TransferStepUp form={f} />
    </Card>
  );
}
