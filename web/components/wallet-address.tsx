import { cn } from "@/web/lib/cn";

/** How many leading and trailing characters a look-alike address usually copies: shown in bold. */
const HEAD = 6;
const TAIL = 4;

/**
 * A whole USDC address in monospace, in groups of four for reading aloud, with the characters people check
 * (the first six and last four) emphasised. Screen readers get the plain address once.
 */
export function WalletAddress({ address, className }: { address: string; className?: string }) {
  const groups: { text: string; start: number }[] = [];
  for (let i = 0; i < address.length; i += 4) groups.push({ text: address.slice(i, i + 4), start: i });
  const isChecked = (i: number) => i < HEAD || i >= address.length - TAIL;
  return (
    <span className={cn("font-mono text-sm leading-relaxed break-words", className)}>
      <span className="sr-only">{address}</span>
      <span aria-hidden className="inline-flex flex-wrap gap-x-1.5">
        {groups.map((group) => (
          <span key={group.start}>
            {[...group.text].map((char, k) => {
              // Characters repeat, so their position in the address is the key.
              const index = group.start + k;
              return isChecked(index) ? (
                <strong key={index} className="font-bold text-brand-800">
                  {char}
                </strong>
              ) : (
                <span key={index} className="text-ink-muted">
                  {char}
                </span>
              );
            })}
          </span>
        ))}
      </span>
    </span>
  );
}
