import { type FormEvent, useRef, useState } from "react";
import { Link } from "wouter";
import { formatMoney, parseMoney } from "@/contract/money";
import {
  type CreateScheduleInput,
  SCHEDULE_CADENCE_LABELS,
  type ScheduleCadence,
} from "@/contract/schedules";
import type { SecondFactorMethod, SecondFactorProof } from "@/contract/security";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { LoadError } from "@/web/components/load-error";
import { MoneyField } from "@/web/components/money-input";
import { NativeSelect } from "@/web/components/native-select";
import { StepUpDialog } from "@/web/components/step-up-dialog";
import { toastApiError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/components/ui/use-toast";
import { useRecipients } from "@/web/features/recipients/api/find-recipients";
import { getSchedulePasskeyOptions, useCreateSchedule } from "@/web/features/schedules/api/change-schedule";
import { formatRunDay } from "@/web/features/schedules/api/find-schedules";
import { CadenceField } from "@/web/features/schedules/components/cadence-field";
import {
  checkScheduleFields,
  fieldOfMessage,
  newYorkToday,
  type ScheduleErrors,
  type ScheduleField,
} from "@/web/features/schedules/schedule-fields";
import { ApiError, failureOf, isUnauthorized, type ReasonOf, unhandledReason } from "@/web/lib/api";
import { methodsOf } from "@/web/lib/step-up";

function newRequestKey(): string {
  return `schedule-${crypto.randomUUID()}`;
}

/** What the form does with a refused schedule: ask for a proof again, ask for one, or show the message. */
function scheduleRefusal(
  reason: ReasonOf<"POST /api/schedules"> | undefined,
): "proof-wrong" | "step-up" | "message" {
  switch (reason) {
    case "second_factor_invalid":
      return "proof-wrong";
    case "step_up_required":
      return "step-up";
    case "second_factor_locked":
    case "customers_only":
    case "schedule_limit_reached":
    case "service_unavailable":
    case undefined:
      return "message";
    default:
      return unhandledReason(reason, "message");
  }
}

/** What the proof signs, shown above it: the schedule's own fields. */
function SignedSchedule({ input, recipient }: { input: CreateScheduleInput; recipient: string }) {
  const cents = parseMoney(String(input.amount)) ?? 0;
  const rows: [string, string][] = [
    ["Amount", formatMoney(cents)],
    ["To", recipient],
    ["How often", SCHEDULE_CADENCE_LABELS[input.cadence]],
    [input.cadence === "once" ? "Date" : "First transfer", formatRunDay(input.startOn)],
  ];
  if (input.endOn) rows.push(["Last transfer", formatRunDay(input.endOn)]);
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 rounded-md border border-line p-3 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-ink-muted">{label}</dt>
          <dd className={`break-words text-ink ${label === "Amount" ? "tabular-nums font-medium" : ""}`}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** "Schedule a transfer": to a saved recipient, confirmed with the second factor when one is on. */
export function ScheduleForm() {
  const recipients = useRecipients();
  const create = useCreateSchedule();
  const [recipientId, setRecipientId] = useState("");
  const [amount, setAmount] = useState("");
  const [cadence, setCadence] = useState<ScheduleCadence>("monthly");
  const [startOn, setStartOn] = useState(newYorkToday);
  const [endOn, setEndOn] = useState("");
  const [errors, setErrors] = useState<ScheduleErrors>({});
  const [confirming, setConfirming] = useState<{
    methods: SecondFactorMethod[];
    input: CreateScheduleInput;
  } | null>(null);
  // One key per filled-in form: a retry after a lost answer finds the schedule already made, and a passkey signs it.
  const requestKey = useRef(newRequestKey());
  const clear = (field: ScheduleField) => setErrors((x) => ({ ...x, [field]: undefined }));
  // After a schedule is made the form starts over: it shows what is left to fill in, not the schedule just made.
  const reset = () => {
    setRecipientId("");
    setAmount("");
    setCadence("monthly");
    setStartOn(newYorkToday());
    setEndOn("");
    setErrors({});
  };

  const showError = (error: unknown) => {
    if (isUnauthorized(error)) return;
    if (error instanceof ApiError && error.status < 500 && error.reason !== "schedule_limit_reached") {
      const field = fieldOfMessage(error.message);
      setErrors({ [field]: error.message });
      focusFieldInError(`schedule-${field}`);
    } else {
      toastApiError(error, "Failed to schedule the transfer");
    }
  };

  /**
   * Sends the schedule. With a second factor on, the server answers step_up_required (writing nothing) and the
   * confirm dialog asks for a proof, which travels in this schedule's body; a wrong one is thrown back to it.
   */
  const send = (input: CreateScheduleInput, secondFactor?: SecondFactorProof) =>
    new Promise<void>((resolve, reject) => {
      create.mutate(secondFactor ? { ...input, secondFactor } : input, {
        onSuccess: ({ schedule }) => {
          setConfirming(null);
          toast({
            title: "Transfer scheduled",
            description: `${schedule.formattedAmount} to ${schedule.recipientName}, first on ${formatRunDay(schedule.startOn)}`,
          });
          requestKey.current = newRequestKey();
          reset();
          resolve();
        },
        onError: (error) => {
          const refusal = scheduleRefusal(failureOf("POST /api/schedules", error));
          if (secondFactor && refusal === "proof-wrong") return reject(error);
          if (refusal === "step-up") {
            setConfirming({ methods: methodsOf(error), input });
            return resolve();
          }
          setConfirming(null);
          showError(error);
          resolve();
        },
      });
    });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkScheduleFields({ amount, startOn, endOn });
    if (!recipientId) found.recipient = "Choose a saved recipient";
    if (Object.keys(found).length > 0) {
      setErrors(found);
      const first = (["recipient", "amount", "start", "end"] as const).find((f) => found[f]);
      focusFieldInError(`schedule-${first}`);
      return;
    }
    void send({
      recipientId,
      amount,
      cadence,
      startOn,
      endOn: cadence === "once" || !endOn ? null : endOn,
      requestKey: requestKey.current,
    });
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
  const chosen = recipients.data.items.find((r) => r.id === confirming?.input.recipientId);
  // The confirm dialog sits outside the form: its own form's submit would bubble through the portal into this one.
  return (
    <>
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
        <MoneyField
          id="schedule-amount"
          label="Amount (USD)"
          hint="Each transfer is an ordinary USDC transfer request, with its 2% fee."
          error={errors.amount}
          value={amount}
          onChange={(value) => {
            setAmount(value);
            clear("amount");
          }}
        />
        <CadenceField id="schedule-cadence" value={cadence} onChange={setCadence} />
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
      <StepUpDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        methods={confirming?.methods ?? []}
        title="Confirm this schedule"
        description={
          confirming?.methods.includes("passkey")
            ? "Confirm with your second factor. A passkey signs exactly this schedule."
            : "Confirm with your second factor to schedule these transfers."
        }
        submitLabel="Confirm and schedule"
        getPasskeyOptions={() => {
          const { secondFactor: _none, ...fields } = confirming!.input;
          return getSchedulePasskeyOptions(fields);
        }}
        onProof={(proof) => send(confirming!.input, proof)}
      >
        {confirming ? (
          <SignedSchedule
            input={confirming.input}
            recipient={chosen ? `${chosen.name} (${chosen.address})` : "your saved recipient"}
          />
        ) : null}
      </StepUpDialog>
    </>
  );
}
