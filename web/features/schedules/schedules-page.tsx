import { useState } from "react";
import { SCHEDULE_CADENCE_LABELS, SKIP_REASON_TEXT, type TransferSchedule } from "@/contract/schedules";
import { ConfirmButton } from "@/web/components/confirm-button";
import { LoadError } from "@/web/components/load-error";
import { MoneyShell } from "@/web/components/money-shell";
import { toastApiError } from "@/web/components/toast-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/components/ui/use-toast";
import { type ScheduleAction, useChangeSchedule } from "@/web/features/schedules/api/change-schedule";
import { formatRunDay, useSchedules } from "@/web/features/schedules/api/find-schedules";
import { EditScheduleForm } from "@/web/features/schedules/components/edit-schedule-form";
import { ScheduleForm } from "@/web/features/schedules/components/schedule-form";
import { isUnauthorized } from "@/web/lib/api";
import { isStepUpCancelled } from "@/web/lib/step-up";
import { useDocumentTitle } from "@/web/lib/use-document-title";

const STATUS_BADGE = {
  active: { label: "Active", tone: "brand" },
  paused: { label: "Paused", tone: "pending" },
  completed: { label: "Finished", tone: "neutral" },
  cancelled: { label: "Cancelled", tone: "neutral" },
} as const;

const SKIPPED_BADGE = { label: "Not sent", tone: "neutral" } as const;

const ACTION_DONE: Record<ScheduleAction, string> = {
  pause: "Schedule paused",
  resume: "Schedule resumed",
  cancel: "Schedule cancelled",
};

function ScheduleRow({ schedule }: { schedule: TransferSchedule }) {
  const change = useChangeSchedule();
  const [isEditing, setEditing] = useState(false);
  const act = (action: ScheduleAction) =>
    change.mutate(
      { id: schedule.id, action },
      {
        onSuccess: () => toast({ title: ACTION_DONE[action], description: schedule.recipientName }),
        onError: (error) => {
          if (isUnauthorized(error) || isStepUpCancelled(error)) return;
          toastApiError(error, "The schedule was not changed");
        },
      },
    );
  const last = schedule.lastRun;
  const isOpen = schedule.status === "active" || schedule.status === "paused";
  // A once-transfer whose one run was skipped sent nothing: it must not read as money out.
  const wasSkipped =
    schedule.cadence === "once" && schedule.status === "completed" && last?.outcome === "skipped";
  const badge = wasSkipped ? SKIPPED_BADGE : STATUS_BADGE[schedule.status];
  return (
    <li className="grid gap-2 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-medium text-ink">
          {schedule.recipientName}{" "}
          <span className="font-normal text-ink-muted">· {SCHEDULE_CADENCE_LABELS[schedule.cadence]}</span>
        </p>
        {/* Signed as money out only while it will send; an ended schedule's amount is a record, not a debit. */}
        {isOpen ? (
          <p className="tabular-nums font-medium text-ink">−{schedule.formattedAmount}</p>
        ) : (
          <p className="tabular-nums text-ink-muted">
            {schedule.formattedAmount}
            <span className="sr-only">{wasSkipped ? ", not sent" : ", ended"}</span>
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm text-ink-muted">
        <Badge tone={badge.tone}>{badge.label}</Badge>
        {schedule.upcoming[0] ? <span>Next: {formatRunDay(schedule.upcoming[0])}</span> : null}
        {isOpen && schedule.endOn ? <span>Ends {formatRunDay(schedule.endOn)}</span> : null}
      </div>
      {last ? (
        <p className="text-sm text-ink-muted">
          {last.outcome === "made"
            ? `Last transfer requested for ${formatRunDay(last.runOn)}.`
            : `Skipped on ${formatRunDay(last.runOn)}: ${SKIP_REASON_TEXT[last.reason ?? "not_made"]}.`}
        </p>
      ) : null}
      {isOpen && isEditing ? <EditScheduleForm schedule={schedule} onDone={() => setEditing(false)} /> : null}
      {isOpen && !isEditing ? (
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={change.isPending}
            aria-label={`Edit schedule to ${schedule.recipientName}`}
            onClick={() => setEditing(true)}
          >
            Edit
          </Button>
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

/** /schedules: scheduled and recurring transfers to saved recipients (decision 036). */
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
