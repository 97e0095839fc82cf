import { Lock, ShieldBan } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { formatBankTime } from "@/contract/bank-time";
import {
  COOLDOWN_ADJECTIVES,
  SEND_BLOCK_COOLDOWNS,
  SEND_BLOCK_SCOPE,
  type SelfLimits,
  type SendBlockCooldown,
} from "@/contract/self-limits";
import { FormField, fieldAria } from "@/web/components/form-field";
import { LoadErrorNote } from "@/web/components/load-error";
import { NativeSelect } from "@/web/components/native-select";
import { PasswordConfirmDialog } from "@/web/components/password-confirm-dialog";
import { toastApiError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useSelfLimits, useSetDailyLimit, useSetSendBlock } from "@/web/features/transfers/api/self-limits";
import { type ReasonOf, reasonOf, unhandledReason } from "@/web/lib/api";
import { isStepUpCancelled } from "@/web/lib/step-up";

const COOLDOWN_LABELS: Record<SendBlockCooldown, string> = {
  "24 hours": "24 hours",
  "7 days": "7 days",
  "30 days": "30 days",
  "12 months": "12 months",
};

/**
 * The block's state in words. During the cooldown sends are still refused, so it reads "On until …", in the time
 * the server wrote (New York, "ET"), the same words its refusal uses.
 */
function blockState(data: SelfLimits): string {
  if (data.blockOn && data.cooldown)
    return `On. Turning it off starts a ${COOLDOWN_ADJECTIVES[data.cooldown]} cooldown.`;
  if (data.blockedUntilText) return `On until ${data.blockedUntilText}. No one can end it sooner.`;
  return "Off.";
}

/** A change that waits for the password (no second factor), and what the dialog says it is. */
interface WaitingChange {
  what: string;
  send: (password: string) => Promise<unknown>;
}

/**
 * Settings → "Your sending limits" (decision 035): the customer's own daily limit (lower at once, raise after
 * 24 h) and "Block crypto sends" with its cooldown. The server decides and answers; this card shows what it
 * said. Lowering the limit and switching the block on need a fresh proof (decision 047): the step-up dialog
 * with a second factor, else the password dialog below.
 */
/** What the two own-limit changes can refuse with (their contracts'). */
type LimitReason =
  | ReasonOf<"PUT /api/transfer/self-limits/daily-limit">
  | ReasonOf<"PUT /api/transfer/self-limits/send-block">;

/** Whether a refused change asks for the account password (no second factor to step up with; decision 047). */
function asksForPassword(reason: LimitReason | undefined): boolean {
  switch (reason) {
    case "password_confirm_required":
      return true;
    case "password_wrong":
    case "step_up_required":
    case "staff_account":
    case "cooldown_shorter":
    case "service_unavailable":
    case undefined:
      return false;
    default:
      return unhandledReason(reason, false);
  }
}

export function SendingLimitsCard() {
  const limits = useSelfLimits();
  const setLimit = useSetDailyLimit();
  const setBlock = useSetSendBlock();
  const [amount, setAmount] = useState("");
  const [cooldown, setCooldown] = useState<SendBlockCooldown>("24 hours");
  const [waiting, setWaiting] = useState<WaitingChange | null>(null);
  const cooldownId = useId();

  /** Runs a change; when the server asks for the password, asks for it and sends the change again with it. */
  const change = async <T extends { message: string }>(
    title: string,
    what: string,
    send: (password?: string) => Promise<T>,
    onDone?: () => void,
  ) => {
    const done = (data: T) => {
      setWaiting(null);
      onDone?.();
      toast({ title, description: data.message });
    };
    try {
      done(await send());
    } catch (error) {
      if (asksForPassword(reasonOf(error) as LimitReason | undefined)) {
        setWaiting({ what, send: async (password) => done(await send(password)) });
      } else if (!isStepUpCancelled(error)) {
        toastApiError(
          error,
          `Could not change ${title === "Daily limit" ? "your daily limit" : "the block"}`,
        );
      }
    }
  };

  const onLimit = (event: FormEvent) => {
    event.preventDefault();
    const value = amount.trim();
    void change(
      "Daily limit",
      value === "" ? "Use the bank's daily limit" : `Set your daily limit to ${value}`,
      (password) => setLimit.mutateAsync({ dailyLimit: value === "" ? null : value, password }),
      () => setAmount(""),
    );
  };
  const onBlock = (on: boolean) =>
    void change(
      "Block crypto sends",
      `Block crypto sends, with a ${COOLDOWN_ADJECTIVES[cooldown]} cooldown after you turn it off`,
      (password) => setBlock.mutateAsync(on ? { on, cooldown, password } : { on }),
    );

  const data = limits.data;
  return (
    <Card role="region" aria-labelledby="sending-limits-title" id="sending-limits">
      <CardHeader>
        <CardTitle id="sending-limits-title">Your sending limits</CardTitle>
        <CardDescription>
          Guard rails of your own, on top of the bank's $2,000 a day. Lowering applies at once; raising takes
          24 hours.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {limits.isPending ? (
          <div className="grid gap-3" role="status" aria-label="Loading your sending limits">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : limits.isError || !data ? (
          <LoadErrorNote what="your sending limits" onRetry={() => void limits.refetch()} />
        ) : (
          <>
            <form className="grid gap-3" onSubmit={onLimit} noValidate>
              <p className="text-sm text-ink">
                <Lock className="mr-1.5 inline size-4 text-brand-700" aria-hidden />
                Daily limit:{" "}
                <strong className="tabular-nums">{data.personalDailyLimit ?? "the bank's $2,000.00"}</strong>
                {data.pendingRaise ? (
                  <span className="block text-xs text-ink-muted">
                    Rising to {data.pendingRaise.dailyLimit ?? "the bank's $2,000.00"} on{" "}
                    {formatBankTime(data.pendingRaise.at)}.
                  </span>
                ) : null}
              </p>
              <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
                <FormField
                  id="own-daily-limit"
                  label="New daily limit"
                  hint="Less than $2,000. Leave empty to use the bank's limit."
                  className="flex-1"
                >
                  <Input
                    id="own-daily-limit"
                    {...fieldAria("own-daily-limit", { hint: true })}
                    inputMode="decimal"
                    placeholder="$500.00"
                    value={amount}
                    onChange={(e) => setAmount(e.target.value)}
                  />
                </FormField>
                <Button type="submit" variant="secondary" disabled={setLimit.isPending} className="sm:mb-6">
                  {setLimit.isPending ? <Spinner className="size-4" label="Saving" /> : null}
                  Save limit
                </Button>
              </div>
            </form>

            <div className="grid gap-3 rounded-lg border border-line bg-canvas p-4">
              <p className="flex items-start gap-2 text-sm font-medium text-ink">
                <ShieldBan className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden />
                <span>
                  Block crypto sends <span className="font-normal text-ink-muted">{blockState(data)}</span>
                </span>
              </p>
              <p className="text-sm text-ink-muted">{SEND_BLOCK_SCOPE}</p>
              {data.blockOn ? (
                <Button
                  type="button"
                  variant="secondary"
                  disabled={setBlock.isPending}
                  onClick={() => onBlock(false)}
                >
                  Turn off (starts the cooldown)
                </Button>
              ) : (
                <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
                  <div className="grid flex-1 gap-1.5">
                    <label htmlFor={cooldownId} className="text-sm font-medium text-ink">
                      Cooldown after turning it off
                    </label>
                    <NativeSelect
                      id={cooldownId}
                      value={cooldown}
                      onChange={(e) => setCooldown(e.target.value as SendBlockCooldown)}
                    >
                      {SEND_BLOCK_COOLDOWNS.map((c) => (
                        <option key={c} value={c}>
                          {COOLDOWN_LABELS[c]}
                        </option>
                      ))}
                    </NativeSelect>
                  </div>
                  <Button type="button" disabled={setBlock.isPending} onClick={() => onBlock(true)}>
                    {data.sendsBlocked ? "Turn the block back on" : "Block crypto sends"}
                  </Button>
                </div>
              )}
            </div>
          </>
        )}
        <PasswordConfirmDialog
          open={waiting !== null}
          what={waiting?.what ?? ""}
          onCancel={() => setWaiting(null)}
          onConfirm={(password) => waiting?.send(password) ?? Promise.resolve()}
        />
      </CardContent>
    </Card>
  );
}
