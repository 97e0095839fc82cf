import { type FormEvent, useRef, useState } from "react";
import { Link } from "wouter";
import { parseMoney } from "@/contract/money";
import {
  SCHEDULE_CADENCE_LABELS,
  SCHEDULE_CADENCES,
  SCHEDULE_MESSAGES,
  type ScheduleCadence,
  SKIP_REASON_TEXT,
  type TransferSchedule,
} from "@/contract/schedules";
import { ConfirmButton } from "@/web/components/confirm-button";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { LoadError } from "@/web/components/load-error";
import { MoneyShell } from "@/web/components/money-shell";
import { NativeSelect } from "@/web/components/native-select";
import { toastApiError } from "@/web/components/toast-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/components/ui/use-toast";
import { useRecipients } from "@/web/features/recipients/api/find-recipients";
import {
  type ScheduleAction,
  useChangeSchedule,
  useCreateSchedule,
} from "@/web/features/schedules/api/change-schedule";
import { formatRunDay, useSchedules } from "@/web/features/schedules/api/find-schedules";
import { ApiError, isUnauthorized } from "@/web/lib/api";
import { isStepUpCancelled } from "@/web/lib/step-up";
import { useDocumentTitle } from "@/web/lib/use-document-title";

type Field = "recipient" | "amount" | "start" | "end";
type Errors = Partial<Record<Field, string>>;

/** Today in New York as YYYY-MM-DD: the earliest first date the server accepts. */
function newYorkToday(): string {
  return new Date().toLocaleDateString("en-CA", { timeZone: "America/New_York" });
}

function newRequestKey(): string {
  return `schedule-${crypto.randomUUID()}`;
}

function fieldOfMessage(message: string): Field {
  if (message.startsWith("The end date")) return "end";
  if (message.includes("date")) return "start";
  if (message.startsWith("Recipient")) return "recipient";
  return "amount";
}

function ScheduleForm() {
  const recipients = useRecipients();
  const create = useCreateSchedule();
  const [recipientId, setRecipientId] = useState("");
  const [amount, setAmount] = useState("");
  const [cadence, setCadence] = useState<ScheduleCadence>("monthly");
  const [startOn, setStartOn] = useState(newYorkToday);
  const [endOn, setEndOn] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  // One key per filled-in form: a retry after a lost answer finds the schedule already made.
  const requestKey = useRef(newRequestKey());
  const clear = (field: Field) => setErrors((x) => ({ ...x, [field]: undefined }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (!recipientId) found.recipient = "Choose a saved recipient";
    const cents = parseMoney(amount);
    if (cents === null) found.amount = SCHEDULE_MESSAGES.amountInvalid;
    else if (cents <= 0) found.amount = SCHEDULE_MESSAGES.amountPositive;
    if (!startOn) found.start = SCHEDULE_MESSAGES.dateInvalid;
    if (endOn && startOn && endOn < startOn) found.end = SCHEDULE_MESSAGES.endBeforeStart;
    if (Object.keys(found).length > 0) {
      setErrors(found);
      const first = (["recipient", "amount", "start", "end"] as const).find((f) => found[f]);
      focusFieldInError(`schedule-${first}`);
      return;
    }
    create.mutate(
      {
        recipientId,
        amount,
        cadence,
        startOn,
        endOn: cadence === "once" || !endOn ? null : endOn,
        requestKey: requestKey.current,
      },
      {
        onSuccess: ({ schedule }) => {
          toast({
            title: "Transfer scheduled",
            description: `${schedule.formattedAmount} to ${schedule.recipientName}, first on ${formatRunDay(schedule.startOn)}`,
          });
          requestKey.current = newRequestKey();
          setAmount("");
          setEndOn("");
        },
        onError: (error) => {
          if (isUnauthorized(error) || isStepUpCancelled(error)) return;
          if (error instanceof ApiError && error.status < 500 && error.reason !== "schedule_limit_reached") {
            const field = fieldOfMessage(error.message);
            setErrors({ [field]: error.message });
            focusFieldInError(`schedule-${field}`);
          } else {
            toastApiError(error, "Failed to schedule the transfer");
          }
        },
      },
    );
  };

  if (recipients.isError) {
    return <LoadError what="your saved recipients" onRetry={() => void recipients.refetch()} />;
  }
  if (!recipients.data) return <Skeleton className="h-72 w-full" aria-hidden />;
  if (recipients.data.items.length === 0) {
    return (
      <p className="text-sm text-ink-muted">
        Scheduled transfers go to saved recipients.{" "}
        <Link href="/recipients" className="text-brand-600 underline-offset-4 hover:underline">
          Save a recipient
        </Link>{" "}
        first.
      </p>
    );
  }
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <FormField id="schedule-recipient" label="Recipient" error={errors.recipient}>
        <NativeSelect
          id="schedule-recipient"
          value={recipientId}
          {...fieldAria("schedule-recipient", { error: errors.recipient })}
          onChange={(e) => {
            setRecipientId(e.target.value);
            clear("recipient");
          }}
        >
          <option value="">Choose a saved recipient</option>
          {recipients.data.items.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name} ({r.address.slice(0, 6)}…{r.address.slice(-4)})
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField
        id="schedule-amount"
        label="Amount (USD)"
        hint="Each transfer is an ordinary USDC transfer request, with its 2% fee."
        error={errors.amount}
      >
        <Input
          id="schedule-amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          className="tabular-nums"
          value={amount}
          {...fieldAria("schedule-amount", { hint: true, error: errors.amount })}
          onChange={(e) => {
            setAmount(e.target.value);
            clear("amount");
          }}
        />
      </FormField>
      <FormField id="schedule-cadence" label="How often">
        <NativeSelect
          id="schedule-cadence"
          value={cadence}
          onChange={(e) => setCadence(e.target.value as ScheduleCadence)}
        >
          {SCHEDULE_CADENCES.map((c) => (
            <option key={c} value={c}>
              {SCHEDULE_CADENCE_LABELS[c]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField
        id="schedule-start"
        label={cadence === "once" ? "Date" : "First transfer"}
        hint="New York time. On the 29th to 31st, monthly transfers go on the last day of shorter months."
        error={errors.start}
      >
        <Input
          id="schedule-start"
          type="date"
          min={newYorkToday()}
          value={startOn}
          {...fieldAria("schedule-start", { hint: true, error: errors.start })}
          onChange={(e) => {
            setStartOn(e.target.value);
            clear("start");
          }}
        />
      </FormField>
      {cadence === "once" ? null : (
        <FormField id="schedule-end" label="Last transfer (optional)" error={errors.end}>
          <Input
            id="schedule-end"
            type="date"
            min={startOn}
            value={endOn}
            {...fieldAria("schedule-end", { error: errors.end })}
            onChange={(e) => {
              setEndOn(e.target.value);
              clear("end");
            }}
          />
        </FormField>
      )}
      <Button type="submit" disabled={create.isPending} className="w-full sm:w-auto sm:justify-self-start">
        Schedule transfer
      </Button>
    </form>
  );
}

const STATUS_BADGE = {
  active: { label: "Active", tone: "brand" },
  paused: { label: "Paused", tone: "pending" },
  completed: { label: "Finished", tone: "neutral" },
  cancelled: { label: "Cancelled", tone: "neutral" },
} as const;

const ACTION_DONE: Record<ScheduleAction, string> = {
  pause: "Schedule paused",
  resume: "Schedule resumed",
  cancel: "Schedule cancelled",
};

function ScheduleRow({ schedule }: { schedule: TransferSchedule }) {
  const change = useChangeSchedule();
  const act = (action: ScheduleAction) =>
    change.mutate(
      { id: schedule.id, action },
      {
        onSuccess: () => toast({ title: ACTION_DONE[action], description: schedule.recipientName }),
        onError: (error) => {
          if (!isUnauthorized(error)) toastApiError(error, "The schedule was not changed");
        },
      },
    );
  const badge = STATUS_BADGE[schedule.status];
  const last = schedule.lastRun;
  const isOpen = schedule.status === "active" || schedule.status === "paused";
  return (
    <li className="grid gap-2 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-medium text-ink">
          {schedule.recipientName}{" "}
          <span className="font-normal text-ink-muted">· {SCHEDULE_CADENCE_LABELS[schedule.cadence]}</span>
        </p>
        <p className="tabular-nums font-medium text-ink">−{schedule.formattedAmount}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm text-ink-muted">
        <Badge tone={badge.tone}>{badge.label}</Badge>
        {schedule.upcoming[0] ? <span>Next: {formatRunDay(schedule.upcoming[0])}</span> : null}
        {schedule.endOn ? <span>Ends {formatRunDay(schedule.endOn)}</span> : null}
      </div>
      {last ? (
        <p className="text-sm text-ink-muted">
          {last.outcome === "made"
            ? `Last transfer requested for ${formatRunDay(last.runOn)}.`
            : `Skipped on ${formatRunDay(last.runOn)}: ${SKIP_REASON_TEXT[last.reason ?? "not_made"]}.`}
        </p>
      ) : null}
      {isOpen ? (
        <div className="flex flex-wrap gap-2">
          {schedule.status === "active" ? (
            <Button variant="secondary" size="sm" disabled={change.isPending} onClick={() => act("pause")}>
              Pause
            </Button>
          ) : (
            <Button variant="secondary" size="sm" disabled={change.isPending} onClick={() => act("resume")}>
              Resume
            </Button>
          )}
          <ConfirmButton
            variant="secondary"
            size="sm"
            isPending={change.isPending}
            title="Cancel this schedule?"
            description={`No more transfers of ${schedule.formattedAmount} to ${schedule.recipientName} will be made. Transfers already requested are not affected.`}
            confirmLabel="Cancel schedule"
            cancelLabel="Keep it"
            onConfirm={() => act("cancel")}
          >
            Cancel schedule
          </ConfirmButton>
        </div>
      ) : null}
    </li>
  );
}

function ScheduleList() {
  const schedules = useSchedules();
  if (schedules.isError) {
    return <LoadError what="your scheduled transfers" onRetry={() => void schedules.refetch()} />;
  }
  if (!schedules.data) {
    return (
      <div className="grid gap-2" aria-hidden>
        {[0, 1].map((i) => (
          <Skeleton key={i} className="h-24 rounded-lg" />
        ))}
      </div>
    );
  }
  if (schedules.data.items.length === 0) {
    return <p className="text-sm text-ink-muted">No scheduled transfers yet.</p>;
  }
  return (
    <ul className="divide-y divide-line rounded-lg border border-line" aria-label="Scheduled transfers">
      {schedules.data.items.map((schedule) => (
        <ScheduleRow key={schedule.id} schedule={schedule} />
      ))}
    </ul>
  );
}

/** /schedules: scheduled and recurring transfers to saved recipients (issue 32 §3). */
export default function SchedulesPage() {
  useDocumentTitle("Scheduled transfers");
  return (
    <MoneyShell title="Scheduled transfers" tab="/send-money">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight text-ink">Scheduled transfers</h1>
        <p className="max-w-2xl text-sm text-ink-muted">
          Each date, the transfer is requested like one you send yourself, with the same limits. If it cannot
          be made that day, it is skipped, you are told why, and the schedule goes on.
        </p>
      </div>
      <div className="grid items-start gap-6 grid-cols-[minmax(0,1fr)] lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardHeader>
            <CardTitle>Your schedules</CardTitle>
          </CardHeader>
          <CardContent>
            <ScheduleList />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Schedule a transfer</CardTitle>
            <CardDescription>To one of your saved recipients.</CardDescription>
          </CardHeader>
          <CardContent>
            <ScheduleForm />
          </CardContent>
        </Card>
      </div>
    </MoneyShell>
  );
}
