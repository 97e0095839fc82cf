import { Download, FileText } from "lucide-react";
import type { TaxFormListItem } from "@/contract/tax-forms";
import { LoadError } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useTaxForms } from "@/web/features/statements/api/find-tax-forms";
import { hrefOf } from "@/web/lib/api";

function describe(form: TaxFormListItem): string {
  if (form.superseded) return `Replaced by a corrected form · ${form.interest} interest income`;
  return `${form.corrected ? "Replaces the form issued before · " : ""}${form.interest} interest income`;
}

/** The customer's Forms 1099-INT: one entry per form issued, a corrected one marked, the one it replaced kept. */
export function TaxFormList() {
  const forms = useTaxForms();
  if (forms.isError) {
    return <LoadError what="your tax forms" onRetry={() => void forms.refetch()} />;
  }
  if (!forms.data) {
    return <Skeleton className="h-14 rounded-lg" aria-hidden />;
  }
  if (forms.data.forms.length === 0) {
    return (
      <p className="text-sm text-ink-muted">
        No tax forms yet. A Form 1099-INT appears here in January for any year your savings earned $10.00 or
        more in interest.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-line rounded-lg border border-line">
      {forms.data.forms.map((form) => {
        const title = `Form 1099-INT ${form.taxYear}${form.corrected ? " (Corrected)" : ""}`;
        return (
          <li key={form.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <span className="flex min-w-44 flex-1 items-center gap-3">
              <FileText className="size-5 shrink-0 text-brand-700" aria-hidden />
              <span className="grid min-w-0">
                <span className="text-sm font-semibold text-ink">{title}</span>
                <span className="text-xs text-ink-muted tabular-nums">{describe(form)}</span>
              </span>
            </span>
            <Button asChild variant="secondary" size="sm">
              <a
                href={hrefOf("GET /api/statements/tax-forms/:id.pdf", { params: { id: form.id } })}
                download
                aria-label={`Download PDF of ${title}`}
              >
                <Download aria-hidden />
                Download PDF
              </a>
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
