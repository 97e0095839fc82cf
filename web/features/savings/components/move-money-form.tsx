import { ArrowRight } from "lucide-react";
import { type FormEvent, useState } from "react";
import type { SavingsDirection, SavingsGoal } from "@/contract/savings";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { MoneyField } from "@/web/components/money-input";
import { NativeSelect } from "@/web/components/native-select";
import { errorMessage } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useMoveSavings } from "@/web/features/savings/api/savings";
import { ApiError, failureOf, type ReasonOf, unhandledReason } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { ResendKeys } from "@/web/lib/idempotency-key";
import { readAmount } from "@/web/lib/read-amount";

const DIRECTIONS: { value: SavingsDirection; from: string; to: string }[] = [
  { value: "to_savings", from: "Checking", to: "Savings" },
  { value: "to_checking", from: "Savings", to: "Checking" },
];

/** Both sides of a move, as the customer holds them now; null while checking's summary loads. */
export interface MoveBalances {
  checkingAvailable: string | null;
  savings: string;
}

function BalanceTile({
  label,
  amount,
  isSource,
}: {
  label: string;
  amount: string | null;
  isSource: boolean;
}) {
  return (
    <div
      className={cn(
        "grid min-w-0 gap-0.5 rounded-lg border p-3",
        isSource ? "border-brand-200 bg-brand-50/60" : "border-line bg-surface",
      )}
    >
      <dt className="text-xs text-ink-muted">
        {label}
        <span className="sr-only">{isSource ? " (moving from)" : " (moving to)"}</span>
      </dt>
      <dd className="text-lg font-semibold text-ink tabular-nums">
        {amount ?? <Skeleton className="mt-1 h-6 w-20" />}
      </dd>
    </div>
  );
}

/**
 * Moving money between checking and savings: instant, free, no second factor (decision 068). What is
 * typed stays on a refusal; a success is said in the page's live region (`onMoved`) and a toast.
 */
/** Which field a refused move's message goes under: every reason its contract names is decided here. */
function fieldInError(reason: ReasonOf<"POST /api/savings/moves"> | undefined): "goal" | "amount" {
  switch (reason) {
    case "savings_goal_not_found":
      return "goal";
    case "insufficient_funds":
    case "savings_not_open":
    case "setup_incomplete":
    case "account_frozen":
    case "account_closed":
    case "staff_account":
    case "idempotency_key_required":
    case "service_unavailable":
    case undefined:
      return "amount";
    default:
      return unhandledReason(reason, "amount");
  }
}

export function MoveMoneyForm({
  balances,
  goals,
  onMoved,
}: {
  balances: MoveBalances;
  goals: SavingsGoal[];
  onMoved: (announcement: string) => void;
}) {
  const move = useMoveSavings();
  const [direction, setDirection] = useState<SavingsDirection>("to_savings");
  const [amount, setAmount] = useState("");
  const [goalId, setGoalId] = useState("");
  const [amountError, setAmountError] = useState<string | null>(null);
  const [goalError, setGoalError] = useState<string | null>(null);
  // One key per attempt; the same attempt sent again after no answer (or a 5xx) keeps its key.
  const [keys] = useState(() => new ResendKeys());
  const chosen = DIRECTIONS.find((d) => d.value === direction)!;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const { cents, error } = readAmount(amount);
    const problem = error ?? (cents === null ? "Enter an amount" : null);
    setAmountError(problem);
    setGoalError(null);
    if (problem) return focusFieldInError("move-amount");
    const input = { direction, amount: amount.trim(), goalId: goalId || null };
    move.mutate(
      { input, idempotencyKey: keys.keyFor(JSON.stringify(input)) },
      {
        onSuccess: (data) => {
          keys.settled(201);
          const goal = goals.find((g) => g.id === data.move.goalId);
          const said = `${data.move.amount} moved to ${chosen.to}${goal ? ` for ${goal.name}` : ""}.`;
          toast({ title: data.message, description: said });
          onMoved(`${data.message}. ${said}`);
          // The next move names a goal only if the customer chooses one again.
          setAmount("");
          setGoalId("");
        },
        onError: (failure) => {
          keys.settled(failure instanceof ApiError ? failure.status : undefined);
          const message = errorMessage(failure, "The money was not moved. Please try again.");
          if (fieldInError(failureOf("POST /api/savings/moves", failure)) === "goal") {
            setGoalError(message);
            focusFieldInError("move-goal");
          } else {
            setAmountError(message);
            focusFieldInError("move-amount");
          }
        },
      },
    );
  };

  const fromChecking = direction === "to_savings";
  const available = fromChecking ? balances.checkingAvailable : balances.savings;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Move money</CardTitle>
        <CardDescription>Between your own accounts: instant, and no fee.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-5" onSubmit={onSubmit} noValidate>
          <fieldset className="grid gap-1.5">
            <legend className="mb-1.5 text-sm font-medium text-ink">Direction</legend>
            <div className="grid grid-cols-2 gap-1 rounded-lg bg-brand-50 p-1">
              {DIRECTIONS.map((d) => (
                <label
                  key={d.value}
                  className={cn(
                    "flex cursor-pointer items-center justify-center rounded-md px-1 py-2 text-xs font-medium whitespace-nowrap text-ink-muted transition-colors hover:text-ink sm:px-3 sm:text-sm",
                    "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500",
                    direction === d.value && "bg-surface text-ink shadow-card",
                  )}
                >
                  <input
                    type="radio"
                    name="move-direction"
                    value={d.value}
                    checked={direction === d.value}
                    onChange={() => {
                      setDirection(d.value);
                      setAmountError(null);
                    }}
                    className="sr-only"
                  />
                  <span className="sr-only">{`${d.from} to ${d.to}`}</span>
                  <span aria-hidden className="flex items-center gap-1 sm:gap-1.5">
                    {d.from}
                    <ArrowRight className="size-3.5 shrink-0 sm:size-4" />
                    {d.to}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>

          <dl className="grid grid-cols-2 gap-3">
            <BalanceTile
              label="Checking available"
              amount={balances.checkingAvailable}
              isSource={fromChecking}
            />
            <BalanceTile label="Savings" amount={balances.savings} isSource={!fromChecking} />
          </dl>

          <div className={cn("grid gap-4", goals.length > 0 && "sm:grid-cols-2")}>
            <MoneyField
              id="move-amount"
              label="Amount"
              hint={available ? `${available} available in ${chosen.from}.` : undefined}
              value={amount}
              onChange={(value) => {
                setAmount(value);
                setAmountError(null);
              }}
              error={amountError}
            />
            {goals.length > 0 ? (
              <FormField id="move-goal" label="Goal (optional)" error={goalError}>
                <NativeSelect
                  id="move-goal"
                  value={goalId}
                  onChange={(e) => {
                    setGoalId(e.target.value);
                    setGoalError(null);
                  }}
                  {...fieldAria("move-goal", { error: goalError })}
                >
                  <option value="">No goal</option>
                  {goals.map((goal) => (
                    <option key={goal.id} value={goal.id}>
                      {goal.name}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
            ) : null}
          </div>

          <Button type="submit" disabled={move.isPending} className="sm:justify-self-start">
            {move.isPending ? <Spinner className="size-4 text-white" label="Moving" /> : null}
            Move to {chosen.to}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
