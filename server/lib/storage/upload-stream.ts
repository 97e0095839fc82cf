import { type Readable, Transform } from "node:stream";

/** The client went away mid-body: the error handler knows ECONNRESET on an aborted request as no fault of ours. */
const aborted = () => Object.assign(new Error("aborted"), { code: "ECONNRESET" });

/**
 * Reads at least `bytes` bytes from the start of `body` (fewer only when it ends first) and puts them back,
 * so the caller can sniff the type before anything is stored and then stream the whole body on. `ended`:
 * the body ended within the head, which is then all of it (nothing can be put back after the end).
 */
export function peekHead(body: Readable, bytes: number): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (err?: Error, ended = false) => {
      body.off("readable", onReadable);
      body.off("end", onEnd);
      body.off("error", finish);
      body.off("close", onClose);
      if (err) return reject(err);
      const head = Buffer.concat(chunks);
      if (!ended && head.length > 0) body.unshift(head);
      resolve({ head, ended });
    };
    const onReadable = () => {
      while (length < bytes) {
        const chunk = body.read() as Buffer | null;
        if (chunk === null) break;
        chunks.push(chunk);
        length += chunk.length;
      }
      if (length >= bytes) finish();
    };
    const onEnd = () => finish(undefined, true);
    const onClose = () => finish(aborted());
    body.on("readable", onReadable);
    body.once("end", onEnd);
    body.once("error", finish);
    body.once("close", onClose);
    if (body.readableEnded) finish(undefined, true);
  });
}

/**
 * `body` piped through a counter that fails with `tooLarge()` as soon as more than `limit` bytes arrived, and
 * with the body's own error (or "aborted") if the client goes away; `counted()` is how many passed so far.
 * Only the current chunk is ever in memory. The body itself is only unpiped, never destroyed, so the
 * server can still answer the request.
 */
export function limitBytes(body: Readable, limit: number, tooLarge: () => Error) {
  let total = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > limit) return done(tooLarge());
      done(null, chunk);
    },
  });
  const onError = (err: Error) => counter.destroy(err);
  const onClose = () => {
    if (!body.readableEnded) counter.destroy(aborted());
  };
  body.once("error", onError);
  body.once("close", onClose);
  counter.once("close", () => {
    body.off("error", onError);
    body.off("close", onClose);
    body.unpipe(counter);
  });
  body.pipe(counter);
  return { stream: counter, counted: () => total };
}
