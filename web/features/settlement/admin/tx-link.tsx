/** 0x1234…abcd: enough to tell two hashes apart; the full one is in the link's title and the CSV. */
export const shortHash = (hash: string) => `${hash.slice(0, 6)}…${hash.slice(-4)}`;

export function TxLink({ hash, href }: { hash: string | null; href: string | null }) {
  if (!hash) return <span className="text-ink-muted">—</span>;
  const text = <code className="font-mono text-xs">{shortHash(hash)}</code>;
  return href ? (
    <a
      href={href}
      target="_blank"
      rel="noreferrer"
      title={hash}
      className="text-brand-700 underline-offset-2 hover:underline"
    >
      {text}
      <span className="sr-only"> (transaction {hash}, opens the block explorer)</span>
    </a>
  ) : (
    <span title={hash}>
      {text}
      <span className="sr-only"> (transaction {hash})</span>
    </span>
  );
}
