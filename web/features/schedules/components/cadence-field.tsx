import { SCHEDULE_CADENCE_LABELS, SCHEDULE_CADENCES, type ScheduleCadence } from "@/contract/schedules";
import { FormField } from "@/web/components/form-field";
import { NativeSelect } from "@/web/components/native-select";

/** "How often": the one select both the new-schedule form and the edit form draw. */
export function CadenceField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: ScheduleCadence;
  onChange: (cadence: ScheduleCadence) => void;
}) {
  return (
    <FormField id={id} label="How often">
      <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value as ScheduleCadence)}>
        {SCHEDULE_CADENCES.map((c) => (
          <option key={c} value={c}>
            {SCHEDULE_CADENCE_LABELS[c]}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}
