/** A CSV cell that a spreadsheet cannot execute (leading =, +, -, @ are neutralised) and that quotes safely. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line (CRLF-terminated) of safe cells. */
export function csvLine(values: readonly string[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/**
 * A CSV export with its first batches already read: a database failure before anything is sent still answers
 * as JSON (503) instead of a cut-off download; later batches are read as the client takes the earlier ones.
 */
export async function startCsv(chunks: AsyncGenerator<string>): Promise<AsyncGenerator<string>> {
  const started: string[] = [];
  for (let i = 0; i < 2; i++) {
    const next = await chunks.next();
    if (next.done) break;
    started.push(next.value);
  }
  return (async function* () {
    yield* started;
    yield* chunks;
  })();
}
