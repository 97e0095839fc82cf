import { Copy, Download } from "lucide-react";
import { BRAND } from "@/contract/brand";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/components/ui/use-toast";

/** The ten recovery codes, shown once: copy, download as .txt, then confirm they are saved. */
export function RecoveryCodesView({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${BRAND.name} recovery codes\nEach code works once. Keep them somewhere safe.\n\n${codes.join("\n")}\n`;
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      toast({ title: "Recovery codes copied" });
    } catch {
      toast({
        title: "Could not copy",
        description: "Select the codes and copy them by hand.",
        variant: "destructive",
      });
    }
  };
  const onDownload = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `${BRAND.name.toLowerCase()}-recovery-codes.txt`;
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="grid gap-4">
      <div className="rounded-lg bg-pending-soft p-3 text-sm text-ink">
        <p className="font-medium">Save these recovery codes now.</p>
        <p className="text-ink-muted">
          They are shown only once. If you lose your phone, each code signs you in one time.
        </p>
      </div>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-2 rounded-lg border border-line bg-canvas p-4 font-mono text-sm tabular-nums sm:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code} className="text-ink">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={onCopy}>
          <Copy aria-hidden />
          Copy
        </Button>
        <Button type="button" variant="secondary" onClick={onDownload}>
          <Download aria-hidden />
          Download .txt
        </Button>
        <Button type="button" className="sm:ml-auto" onClick={onDone}>
          I saved them
        </Button>
      </div>
    </div>
  );
}
