import { useQuery } from "@tanstack/react-query";
import { ExternalLink, FileText, ImageOff } from "lucide-react";
import { useState } from "react";
import { PDF_CONTENT_TYPE } from "@/contract/kyc";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/web/components/ui/dialog";
import { Spinner } from "@/web/components/ui/spinner";

/**
 * `/objects/…` paths carry no extension, so ask the server what the file is (HEAD, same-origin, cookie auth).
 * An unanswered HEAD falls back to an image, whose own failure then only hides the spinner.
 */
async function isPdfDocument(url: string, signal: AbortSignal): Promise<boolean> {
  if (/\.pdf($|[?#])/i.test(url)) return true;
  const res = await fetch(url, { method: "HEAD", credentials: "include", signal });
  return (res.headers.get("content-type") ?? "").startsWith(PDF_CONTENT_TYPE);
}

function DocumentPreview({ url, label }: { url: string; label: string }) {
  const kind = useQuery({
    queryKey: ["document-kind", url],
    queryFn: ({ signal }) => isPdfDocument(url, signal),
    retry: false,
  });
  const [isLoaded, setLoaded] = useState(false);
  const [hasFailed, setFailed] = useState(false);
  const isPdf = kind.data === true;
  const isSpinning = kind.isPending || (!isLoaded && !hasFailed);

  return (
    <div className="relative flex min-h-64 items-center justify-center overflow-hidden rounded-lg border border-line bg-canvas">
      {isSpinning ? (
        <span className="absolute inset-0 flex items-center justify-center">
          <Spinner className="size-8" label="Loading document" />
        </span>
      ) : null}
      {kind.isPending ? null : isPdf ? (
        <iframe
          src={url}
          title={label}
          className="h-[70dvh] w-full bg-surface"
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
        />
      ) : hasFailed ? (
        <p className="flex flex-col items-center gap-2 p-6 text-center text-sm text-ink-muted">
          <ImageOff className="size-8 text-ink-subtle" aria-hidden />
          The preview could not be shown here. Try Open in New Tab.
        </p>
      ) : (
        <img
          src={url}
          alt={label}
          className="max-h-[70dvh] w-auto max-w-full object-contain"
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
        />
      )}
    </div>
  );
}

/** A document button that opens the viewer: images inline, PDFs embedded, and 'Open in New Tab'. */
export function DocumentViewer({ url, label, applicant }: { url: string; label: string; applicant: string }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <Dialog open={isOpen} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`View ${label} for ${applicant}`}>
          <FileText aria-hidden />
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{label}</DialogTitle>
          <DialogDescription>{applicant}</DialogDescription>
        </DialogHeader>
        {isOpen ? <DocumentPreview url={url} label={`${label} for ${applicant}`} /> : null}
        <Button asChild variant="secondary" className="justify-self-start">
          <a href={url} target="_blank" rel="noopener noreferrer">
            <ExternalLink aria-hidden />
            Open in New Tab
          </a>
        </Button>
      </DialogContent>
    </Dialog>
  );
}
