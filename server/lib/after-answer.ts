/**
 * Work a request starts but does not wait for: it runs once the handler has returned (after the answer is on
 * its way), so the answer's timing cannot depend on it. In-process and best effort: work lost to a crash is
 * work the caller can ask for again (a reset code). Errors go to `onError`, never to the request.
 */
const running = new Set<Promise<void>>();
let hold: Promise<void> | null = null;

export function runAfterAnswer(work: () => Promise<void>, onError: (error: unknown) => void): void {
  const held = hold;
  const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => held)
    .then(work)
    .catch(onError)
    .finally(() => running.delete(task));
  running.add(task);
}

/** How many started pieces of work have not finished. */
export function pendingAfterAnswerWork(): number {
  return running.size;
}

/** Waits for every started piece of work (app close, tests). */
export async function settleAfterAnswerWork(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}

/**
 * Tests: work queued from now on waits until the returned function is called, so a test can look at what a
 * request did before its queued work ran.
 */
export function holdAfterAnswerWork(): () => void {
  let release!: () => void;
  hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  return () => {
    hold = null;
    release();
  };
}
