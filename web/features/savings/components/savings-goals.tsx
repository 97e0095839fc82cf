import { Target } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import type { SavingsGoal } from "@/contract/savings";
import { GOAL_MESSAGES, GOAL_NAME_MAX } from "@/contract/savings-text";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { MoneyField } from "@/web/components/money-input";
import { errorMessage } from "@/web/components/toast-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useCreateSavingsGoal } from "@/web/features/savings/api/savings";
import { formatRunDay } from "@/web/features/schedules/api/find-schedules";
import { readAmount } from "@/web/lib/read-amount";

function GoalRow({ goal }: { goal: SavingsGoal }) {
  const percent = Math.min(100, Math.floor((Math.max(goal.savedCents, 0) / goal.targetCents) * 100));
  const isReached = goal.savedCents >= goal.targetCents;
  return (
    <li className="grid gap-2 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="flex items-center gap-2 font-medium text-ink">
          {goal.name}
          {isReached ? <Badge tone="positive">Reached</Badge> : null}
        </p>
        <p className="text-sm text-ink-muted tabular-nums">
          <span className="font-medium text-ink">{goal.saved}</span> of {goal.target}
        </p>
      </div>
      <div
        role="progressbar"
        aria-label={`${goal.name}: ${goal.saved} of ${goal.target}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
        className="h-2 overflow-hidden rounded-full bg-brand-50"
      >
        <div
          className={isReached ? "h-full rounded-full bg-positive" : "h-full rounded-full bg-brand-600"}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="text-xs text-ink-subtle">
        {percent}% saved{goal.targetDate ? ` · target date ${formatRunDay(goal.targetDate)}` : ""}
      </p>
    </li>
  );
}

function NewGoalForm({ onAdded }: { onAdded: (name: string) => void }) {
  const create = useCreateSavingsGoal();
  const [name, setName] = useState("");
  const [target, setTarget] = useState("");
  const [targetDate, setTargetDate] = useState("");
  const [errors, setErrors] = useState<{ name?: string; target?: string; date?: string; form?: string }>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const amount = readAmount(target);
    const found = {
      name: !trimmed
        ? GOAL_MESSAGES.nameRequired
        : trimmed.length > GOAL_NAME_MAX
          ? GOAL_MESSAGES.nameTooLong
          : undefined,
      target: amount.error ?? (amount.cents === null ? GOAL_MESSAGES.targetRequired : undefined),
    };
    setErrors(found);
    if (found.name) return focusFieldInError("goal-name");
    if (found.target) return focusFieldInError("goal-target");
    create.mutate(
      { name: trimmed, target: target.trim(), targetDate: targetDate || null },
      {
        onSuccess: () => {
          toast({ title: "Goal added", description: trimmed });
          onAdded(trimmed);
          setName("");
          setTarget("");
          setTargetDate("");
        },
        onError: (failure) => {
          const message = errorMessage(failure, "The goal was not added. Please try again.");
          // The server names the field in its words: an amount, a date, or the goal itself.
          const field = /amount|goal can be at most \$/i.test(message)
            ? "target"
            : /date/i.test(message)
              ? "date"
              : /name/i.test(message)
                ? "name"
                : "form";
          setErrors({ [field]: message });
          if (field !== "form") focusFieldInError(`goal-${field}`);
        },
      },
    );
  };

  return (
    <form className="grid gap-4 border-t border-line pt-5" onSubmit={onSubmit} noValidate>
      <h3 className="text-sm font-semibold text-ink">New goal</h3>
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField id="goal-name" label="Name" error={errors.name}>
          <Input
            id="goal-name"
            maxLength={GOAL_NAME_MAX + 20}
            autoComplete="off"
            placeholder="Emergency fund"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setErrors({});
            }}
            {...fieldAria("goal-name", { error: errors.name })}
          />
        </FormField>
        <MoneyField
          id="goal-target"
          label="Target"
          value={target}
          onChange={(value) => {
            setTarget(value);
            setErrors({});
          }}
          error={errors.target}
        />
        <FormField id="goal-date" label="Target date (optional)" error={errors.date}>
          <Input
            id="goal-date"
            type="date"
            value={targetDate}
            onChange={(e) => {
              setTargetDate(e.target.value);
              setErrors({});
            }}
            {...fieldAria("goal-date", { error: errors.date })}
          />
        </FormField>
      </div>
      {errors.form ? (
        <p className="text-sm text-negative" role="alert">
          {errors.form}
        </p>
      ) : null}
      <Button type="submit" variant="secondary" disabled={create.isPending} className="sm:justify-self-start">
        {create.isPending ? <Spinner className="size-4" label="Adding" /> : <Target aria-hidden />}
        Add goal
      </Button>
    </form>
  );
}

/** Savings goals (docs/banking.md "Savings"): what each has saved (the moves that named it) against its target. */
export function SavingsGoals({ goals, onAdded }: { goals: SavingsGoal[]; onAdded: (name: string) => void }) {
  // After a goal is added focus lands on the list that now holds it.
  const heading = useRef<HTMLHeadingElement>(null);
  const added = (name: string) => {
    onAdded(name);
    requestAnimationFrame(() => heading.current?.focus());
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle ref={heading} tabIndex={-1} className="focus-visible:outline-none">
          Goals
        </CardTitle>
        <CardDescription>Name a move after a goal to count it toward that goal.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {goals.length > 0 ? (
          <ul className="grid divide-y divide-line">
            {goals.map((goal) => (
              <GoalRow key={goal.id} goal={goal} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-ink-muted">
            No goals yet. Add one below, then name it when you move money.
          </p>
        )}
        <NewGoalForm onAdded={added} />
      </CardContent>
    </Card>
  );
}
