import { type FormEvent, type ReactNode, useId, useState } from "react";
import {
  type ComplianceCaseDetail,
  SAR_CATEGORIES,
  SAR_CATEGORY_KEYS,
  SAR_FILING_TYPE_LABELS,
  SAR_FILING_TYPES,
  SAR_ID_TYPE_LABELS,
  SAR_ID_TYPES,
  type SarCategory,
  type SarDetails,
  type SarDetailsInput,
  type SarFilingType,
  type SarIdType,
} from "@/contract/compliance";
import { LoadErrorNote } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input, inputClassName } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Skeleton } from "@/web/components/ui/skeleton";
import { sarXmlUrl, useSarDetails, useSaveSarDetails } from "@/web/features/compliance/api/regulator-reports";
import { formatShortDate } from "@/web/lib/format";

// Native checkboxes in the brand colour: a list of sixteen needs no script of its own.
const CHECKBOX =
  "size-4 shrink-0 accent-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500";

/** A YYYY-MM-DD day at noon UTC: the same calendar day in New York, as formatShortDate reads it. */
const dayText = (day: string) => formatShortDate(`${day}T12:00:00Z`);

function Field({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/** The form's state: strings as the inputs hold them, turned into the contract's input on save. */
function initialState(sar: SarDetails) {
  return {
    filingType: sar.filingType,
    priorReportId: sar.priorReportId ?? "",
    priorFiledOn: sar.priorFiledOn ?? "",
    subjectIdentified: sar.subjectIdentified,
    categories: sar.categories,
    otherCategory: sar.otherCategory ?? "",
    idType: sar.idType ?? "",
    idOtherType: sar.idOtherType ?? "",
    idNumber: "",
    idIssuerState: sar.idIssuerState ?? "",
    idIssuerCountry: sar.idIssuerCountry ?? "",
    occupation: sar.occupation ?? "",
  };
}
type FormState = ReturnType<typeof initialState>;

const orNull = (v: string) => (v.trim() === "" ? null : v.trim());

function toInput(f: FormState): SarDetailsInput {
  return {
    filingType: f.filingType,
    priorReportId: f.filingType === "initial" ? null : orNull(f.priorReportId),
    priorFiledOn: f.filingType === "initial" ? null : orNull(f.priorFiledOn),
    subjectIdentified: f.subjectIdentified,
    categories: f.categories,
    otherCategory: f.categories.includes("other") ? orNull(f.otherCategory) : null,
    idType: (f.idType || null) as SarIdType | null,
    idOtherType: f.idType === "other" ? orNull(f.idOtherType) : null,
    // Empty keeps the number on file: the page never holds it.
    ...(f.idNumber.trim() ? { idNumber: f.idNumber.trim() } : {}),
    idIssuerState: orNull(f.idIssuerState),
    idIssuerCountry: orNull(f.idIssuerCountry),
    occupation: orNull(f.occupation),
  };
}

function SarForm({ detail, sar }: { detail: ComplianceCaseDetail; sar: SarDetails }) {
  const save = useSaveSarDetails(detail.id);
  const [form, setForm] = useState(() => initialState(sar));
  const [note, setNote] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const ids = {
    type: useId(),
    prior: useId(),
    priorOn: useId(),
    other: useId(),
    occupation: useId(),
    idType: useId(),
    idOther: useId(),
    idNumber: useId(),
    state: useId(),
    country: useId(),
    suspect: useId(),
  };
  const editable = detail.status === "open";
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setNote(null);
    save.mutateAsync(toInput(form)).then(
      (res) => {
        setNote({ tone: "ok", text: res.message });
        setForm((f) => ({ ...f, idNumber: "" }));
      },
      (err: Error) => setNote({ tone: "error", text: err.message }),
    );
  };
  const toggle = (key: SarCategory, on: boolean) =>
    set("categories", on ? [...form.categories, key] : form.categories.filter((c) => c !== key));
  return (
    <form onSubmit={onSubmit} className="grid gap-5" aria-describedby={`${ids.type}-clock`}>
      <p id={`${ids.type}-clock`} className="text-sm text-ink-muted">
        Due {formatShortDate(sar.reportDueAt)}
        {sar.filingType === "continuing"
          ? ` · continuing activity: 120 days from the prior filing${sar.reviewOn ? `, reviewed ${dayText(sar.reviewOn)}` : ""}`
          : sar.subjectIdentified
            ? " · 30 days from first detection"
            : " · 60 days from first detection (no suspect identified)"}
      </p>
      <fieldset className="grid gap-3 sm:grid-cols-3" disabled={!editable}>
        <legend className="mb-2 text-sm font-medium text-ink">Filing</legend>
        <Field label="Type of filing" id={ids.type}>
          <select
            id={ids.type}
            className={inputClassName}
            value={form.filingType}
            onChange={(e) => set("filingType", e.target.value as SarFilingType)}
          >
            {SAR_FILING_TYPES.map((t) => (
              <option key={t} value={t}>
                {SAR_FILING_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </Field>
        {form.filingType !== "initial" ? (
          <>
            <Field label="Prior report's BSA ID" id={ids.prior}>
              <Input
                id={ids.prior}
                inputMode="numeric"
                maxLength={14}
                placeholder="14 digits"
                value={form.priorReportId}
                onChange={(e) => set("priorReportId", e.target.value)}
              />
            </Field>
            <Field label="Prior report filed on" id={ids.priorOn}>
              <Input
                id={ids.priorOn}
                type="date"
                value={form.priorFiledOn}
                onChange={(e) => set("priorFiledOn", e.target.value)}
              />
            </Field>
          </>
        ) : null}
        <div className="flex items-center gap-2 sm:col-span-3">
          <input
            type="checkbox"
            id={ids.suspect}
            className={CHECKBOX}
            checked={!form.subjectIdentified}
            onChange={(e) => set("subjectIdentified", !e.target.checked)}
          />
          <Label htmlFor={ids.suspect}>No suspect identified (the report is due in 60 days)</Label>
        </div>
      </fieldset>

      <fieldset className="grid gap-2" disabled={!editable}>
        <legend className="mb-2 text-sm font-medium text-ink">
          Suspicious activity (FinCEN SAR Part II)
        </legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {SAR_CATEGORY_KEYS.map((key) => {
            const id = `${ids.type}-cat-${key}`;
            return (
              <div key={key} className="flex items-start gap-2">
                <input
                  type="checkbox"
                  id={id}
                  className={`${CHECKBOX} mt-0.5`}
                  checked={form.categories.includes(key)}
                  onChange={(e) => toggle(key, e.target.checked)}
                />
                <Label htmlFor={id} className="font-normal">
                  {SAR_CATEGORIES[key].label}
                </Label>
              </div>
            );
          })}
        </div>
        {form.categories.includes("other") ? (
          <Field label="Other suspicious activity" id={ids.other}>
            <Input
              id={ids.other}
              maxLength={50}
              value={form.otherCategory}
              onChange={(e) => set("otherCategory", e.target.value)}
            />
          </Field>
        ) : null}
      </fieldset>

      <fieldset className="grid gap-3 sm:grid-cols-2" disabled={!editable}>
        <legend className="mb-2 text-sm font-medium text-ink">Subject</legend>
        <dl className="grid gap-2 text-sm sm:col-span-2 sm:grid-cols-2">
          <div>
            <dt className="text-ink-muted">SSN/TIN (from the identity check)</dt>
            <dd className="tabular-nums text-ink">
              {sar.ssnMasked ?? "Not on file: the report says unknown"}
            </dd>
          </div>
          <div>
            <dt className="text-ink-muted">Phone</dt>
            <dd className="tabular-nums text-ink">{sar.phone ?? "—"}</dd>
          </div>
        </dl>
        <Field label="Occupation or type of business" id={ids.occupation}>
          <Input
            id={ids.occupation}
            maxLength={50}
            value={form.occupation}
            onChange={(e) => set("occupation", e.target.value)}
          />
        </Field>
        <Field label="ID document" id={ids.idType}>
          <select
            id={ids.idType}
            className={inputClassName}
            value={form.idType}
            onChange={(e) => set("idType", e.target.value as SarIdType | "")}
          >
            <option value="">Not recorded</option>
            {SAR_ID_TYPES.map((t) => (
              <option key={t} value={t}>
                {SAR_ID_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </Field>
        {form.idType === "other" ? (
          <Field label="Which document" id={ids.idOther}>
            <Input
              id={ids.idOther}
              maxLength={50}
              value={form.idOtherType}
              onChange={(e) => set("idOtherType", e.target.value)}
            />
          </Field>
        ) : null}
        {form.idType ? (
          <>
            <Field label="ID number" id={ids.idNumber}>
              <Input
                id={ids.idNumber}
                autoComplete="off"
                maxLength={25}
                placeholder={sar.idNumberMasked ? `On file: ${sar.idNumberMasked}` : "As on the document"}
                value={form.idNumber}
                onChange={(e) => set("idNumber", e.target.value)}
              />
            </Field>
            <Field label="Issuing state" id={ids.state}>
              <Input
                id={ids.state}
                maxLength={2}
                placeholder="NY"
                value={form.idIssuerState}
                onChange={(e) => set("idIssuerState", e.target.value)}
              />
            </Field>
            <Field label="Issuing country" id={ids.country}>
              <Input
                id={ids.country}
                maxLength={2}
                placeholder="US"
                value={form.idIssuerCountry}
                onChange={(e) => set("idIssuerCountry", e.target.value)}
              />
            </Field>
          </>
        ) : null}
      </fieldset>

      {sar.missing.length > 0 ? (
        <div className="text-sm text-ink-muted">
          <p>Before the XML can be exported, record:</p>
          <ul className="list-disc pl-5">
            {sar.missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {editable ? (
          <Button size="sm" type="submit" disabled={save.isPending}>
            Save report details
          </Button>
        ) : null}
        {sar.missing.length === 0 ? (
          <Button asChild size="sm" variant="secondary">
            <a href={sarXmlUrl(detail.id)} download>
              Download FinCEN XML
            </a>
          </Button>
        ) : null}
      </div>
      <p
        role="status"
        aria-live="polite"
        className={note?.tone === "error" ? "text-sm text-negative" : "text-sm text-positive"}
      >
        {note?.text ?? ""}
      </p>
    </form>
  );
}

/**
 * The SAR's FinCEN fields on the case page (decision 055): the filing, the categories, the subject's identity
 * (SSN and ID number masked; full only in the XML, whose download is audited) and the export.
 */
export function SarFiling({ detail }: { detail: ComplianceCaseDetail }) {
  const sar = useSarDetails(detail.id);
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId} role="region">
      <CardHeader>
        <CardTitle id={titleId}>Suspicious activity report</CardTitle>
        <CardDescription>
          What FinCEN's form needs beyond the draft below; the XML is the file a filer uploads to BSA
          E-Filing.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {sar.isPending ? (
          <Skeleton className="h-40" />
        ) : sar.isError ? (
          <LoadErrorNote what="the report details" onRetry={() => sar.refetch()} />
        ) : (
          <SarForm detail={detail} sar={sar.data} />
        )}
      </CardContent>
    </Card>
  );
}
