import { Pencil, RotateCcw, Save, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import type { AdminUser } from "@/contract/admin";
import type { DashboardContent, UpdateDashboardContentInput } from "@/contract/dashboard-content";
import {
  DASHBOARD_CONTENT_FIELDS,
  type DashboardContentField,
  defaultDashboardContent,
} from "@/contract/dashboard-content-fields";
import { toastFixedFailure } from "@/web/components/admin/admin-toasts";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input, Textarea } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { useUpdateDashboardContent } from "@/web/features/content/admin/api/update-dashboard-content";
import { CONTENT_GROUPS } from "@/web/features/content/admin/content-fields";
import { DashboardPreview } from "@/web/features/content/admin/dashboard-preview";

type Texts = Record<DashboardContentField, string>;

const textsOf = (content: DashboardContent): Texts =>
  Object.fromEntries(DASHBOARD_CONTENT_FIELDS.map((f) => [f, content[f]])) as Texts;

/** Dashboard editor: view mode (fields disabled) or edit mode with Save and Cancel; live preview. */
export function DashboardContentEditor({ user, content }: { user: AdminUser; content: DashboardContent }) {
  const [isEditing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Texts>(() => textsOf(content));
  const update = useUpdateDashboardContent();
  const defaults = defaultDashboardContent(user.pillarTag);
  const saved = textsOf(content);
  // A blank field shows (and will save as) its default, so the preview never has holes.
  const shown = Object.fromEntries(
    DASHBOARD_CONTENT_FIELDS.map((f) => [f, draft[f].trim() || defaults[f]]),
  ) as Texts;
  const changed = DASHBOARD_CONTENT_FIELDS.filter((f) => draft[f].trim() !== saved[f]);

  const onCancel = () => {
    setDraft(saved);
    setEditing(false);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (changed.length === 0) return setEditing(false);
    const input: UpdateDashboardContentInput = Object.fromEntries(changed.map((f) => [f, draft[f].trim()]));
    update.mutate(
      { userId: user.id, input },
      {
        onSuccess: (next) => {
          setDraft(textsOf(next));
          setEditing(false);
        },
        onError: toastFixedFailure("Failed to update dashboard content"),
      },
    );
  };

  const editActions = (
    <div className="flex gap-2">
      <Button variant="secondary" size="sm" onClick={onCancel} disabled={update.isPending}>
        <X aria-hidden />
        Cancel
      </Button>
      <Button type="submit" size="sm" disabled={update.isPending}>
        {update.isPending ? <Spinner className="size-4 text-white" label="Saving" /> : <Save aria-hidden />}
        Save
      </Button>
    </div>
  );

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_28rem]">
      <Card>
        <form onSubmit={onSubmit} noValidate>
          <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="grid gap-1">
              <CardTitle>{isEditing ? "Editing dashboard texts" : "Dashboard texts"}</CardTitle>
              <CardDescription>
                {isEditing
                  ? "Leave a field blank to restore its default."
                  : "What this customer reads on their dashboard. Choose Edit to change it."}
              </CardDescription>
            </div>
            {isEditing ? (
              editActions
            ) : (
              <Button size="sm" onClick={() => setEditing(true)}>
                <Pencil aria-hidden />
                Edit
              </Button>
            )}
          </CardHeader>
          <CardContent className="grid gap-6">
            {CONTENT_GROUPS.map((group) => (
              <fieldset key={group.title} className="grid gap-4 border-t border-line pt-4 sm:grid-cols-2">
                <legend className="float-left mb-1 text-xs font-semibold tracking-wide text-ink-muted uppercase sm:col-span-2">
                  {group.title}
                </legend>
                {group.fields.map(({ key, label, long }) => {
                  const id = `content-${key}`;
                  const Control = long ? Textarea : Input;
                  const isCustom = draft[key].trim() !== "" && draft[key].trim() !== defaults[key];
                  // In a group with a paragraph field every field takes the full width, title above text.
                  const isWide = group.fields.some((f) => f.long);
                  return (
                    <div key={key} className={isWide ? "grid gap-1.5 sm:col-span-2" : "grid gap-1.5"}>
                      <div className="flex items-center justify-between gap-2">
                        <Label htmlFor={id}>{label}</Label>
                        {isEditing && isCustom ? (
                          <button
                            type="button"
                            className="inline-flex items-center gap-1 text-xs text-brand-600 hover:underline"
                            onClick={() => setDraft((d) => ({ ...d, [key]: "" }))}
                          >
                            <RotateCcw className="size-3" aria-hidden />
                            Use default
                          </button>
                        ) : null}
                      </div>
                      <Control
                        id={id}
                        maxLength={200}
                        rows={long ? 2 : undefined}
                        placeholder={defaults[key]}
                        disabled={!isEditing || update.isPending}
                        value={draft[key]}
                        onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
                      />
                    </div>
                  );
                })}
              </fieldset>
            ))}
            {isEditing ? (
              <div className="flex flex-wrap items-center justify-between gap-3 border-t border-line pt-4">
                <p className="text-xs text-ink-subtle tabular-nums" aria-live="polite">
                  {changed.length === 0
                    ? "No changes yet"
                    : `${changed.length} unsaved change${changed.length === 1 ? "" : "s"}`}
                </p>
                {editActions}
              </div>
            ) : null}
          </CardContent>
        </form>
      </Card>
      <section className="grid gap-2 lg:sticky lg:top-6">
        <h2 className="text-sm font-semibold text-ink">Live preview</h2>
        <DashboardPreview texts={shown} user={user} />
      </section>
    </div>
  );
}
