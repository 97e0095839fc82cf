import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { parseMoney } from "@/contract/money";
import type { EditScheduleInput, ScheduleCadence, TransferSchedule } from "@/contract/schedules";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { MoneyField } from "@/web/components/money-input";
import { toastApiError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/components/ui/use-toast";
import { useEditSchedule } from "@/web/features/schedules/api/change-schedule";
import { CadenceField } from "@/web/features/schedules/components/cadence-field";
import {
  centsToField,
  checkScheduleFields,
  fieldOfMessage,
  newYorkToday,
  type ScheduleErrors,
  type ScheduleField,
} from "@/web/features/schedules/schedule-fields";
import { ApiError, isUnauthorized } from "@/web/lib/api";
import { isStepUpCancelled } from "@/web/lib/step-up";

/**
 * Only what the customer changed is sent. A new next date or a new frequency starts the schedule again from the
 * next date shown (the server's PATCH restarts from a changed first date), so the next transfer is the one chosen.
 */
function editOf(
  schedule: TransferSchedule,
  fields: { amount: string; nextOn: string; cadence: ScheduleCadence; endOn: string },
): EditScheduleInput {
  const edit: EditScheduleInput = {};
  const cents = parseMoney(fields.amount);
  if (cents !== null && cents !== schedule.amountCents) edit.amount = fields.amount;
  if (fields.cadence !== schedule.cadence) edit.cadence = fields.cadence;
  const wasNext = schedule.upcoming[0] ?? "";
  if (fields.nextOn && (fields.nextOn !== wasNext || edit.cadence !== undefined))
    edit.startOn = fields.nextOn;
  const endOn = fields.cadence === "once" || !fields.endOn ? null : fields.endOn;
  if (endOn !== schedule.endOn) edit.endOn = endOn;
  return edit;
}

/** Edit a running or paused schedule in place: amount, next date, frequency and last date, after "Verify it's you". */
export function EditScheduleForm({ schedule, onDone }: { schedule: TransferSchedule; onDone: () => void }) {
  const id = useId();
  const edit = useEditSchedule();
  const [amount, setAmount] = useState(centsToField(schedule.amountCents));
  const [nextOn, setNextOn] = useState(schedule.upcoming[0] ?? "");
  const [cadence, setCadence] = useState<ScheduleCadence>(schedule.cadence);
  const [endOn, setEndOn] = useState(schedule.endOn ?? "");
  const [errors, setErrors] = useState<ScheduleErrors>({});
  // The Edit button that opened the form is gone: keyboard focus goes on to its first field.
  const firstField = useRef<HTMLInputElement>(null);
  useEffect(() => firstField.current?.focus(), []);
  const fieldId = (field: ScheduleField | "cadence") => `${id}-${field}`;
  const clear = (field: ScheduleField) => setErrors((x) => ({ ...x, [field]: undefined }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkScheduleFields({ amount, startOn: nextOn || newYorkToday(), endOn });
    if (Object.keys(found).length > 0) {
      setErrors(found);
      focusFieldInError(fieldId((["amount", "start", "end"] as const).find((f) => found[f])!));
      return;
    }
    const changes = editOf(schedule, { amount, nextOn, cadence, endOn });
    if (Object.keys(changes).length === 0) return onDone();
    edit.mutate(
      { id: schedule.id, edit: changes },
      {
        onSuccess: () => {
          toast({ title: "Schedule updated", description: schedule.recipientName });
          onDone();
        },
        onError: (error) => {
          if (isUnauthorized(error) || isStepUpCancelled(error)) return;
          if (error instanceof ApiError && error.status < 500 && error.reason !== "schedule_state") {
            const field = fieldOfMessage(error.message);
            const shown = field === "recipient" ? "amount" : field;
            setErrors({ [shown]: error.message });
            focusFieldInError(fieldId(shown));
          } else {
            toastApiError(error, "The schedule was not changed");
          }
        },
      },
    );
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label={`Edit schedule to ${schedule.recipientName}`}
      className="grid gap-3 rounded-md border border-line bg-canvas p-3 sm:grid-cols-2"
    >
      <MoneyField
        ref={firstField}
        id={fieldId("amount")}
        label="Amount (USD)"
        error={errors.amount}
        value={amount}
        onChange={(value) => {
          setAmount(value);
          clear("amount");
        }}
      />
      <CadenceField id={fieldId("cadence")} value={cadence} onChange={setCadence} />
      <FormField
        id={fieldId("start")}
        label="Next transfer"
        hint={schedule.status === "paused" ? "Leave empty to keep the dates." : "New York time."}
        error={errors.start}
      >
        <Input
          id={fieldId("start")}
          type="date"
          min={newYorkToday()}
          value={nextOn}
          {...fieldAria(fieldId("start"), { hint: true, error: errors.start })}
          onChange={(e) => {
            setNextOn(e.target.value);
            clear("start");
          }}
        />
      </FormField>
      {cadence === "once" ? null : (
        <FormField id={fieldId("end")} label="Last transfer (optional)" error={errors.end}>
          <Input
            id={fieldId("end")}
            type="date"
            min={nextOn || newYorkToday()}
            value={endOn}
            {...fieldAria(fieldId("end"), { error: errors.end })}
            onChange={(e) => {
              setEndOn(e.target.value);
              clear("end");
            }}
          />
        </FormField>
      )}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <Button type="submit" size="sm" disabled={edit.isPending}>
          Save changes
        </Button>
        <Button type="button" variant="secondary" size="sm" disabled={edit.isPending} onClick={onDone}>
          Keep as it was
        </Button>
      </div>
    </form>
  );
}
