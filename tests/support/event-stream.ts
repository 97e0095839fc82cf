import http from "node:http";

export interface StreamEvent {
  id?: string;
  event: string;
  data: string;
}

export interface EventStreamClient {
  status: number;
  /** The response's headers (behind HAProxy, X-Served-By names the instance holding the stream). */
  headers: http.IncomingHttpHeaders;
  events: StreamEvent[];
  /** When each comment line (the server's `: ping` heartbeat) arrived, in ms since the epoch. */
  comments: number[];
  /** Resolves with the first event (already received or coming) that matches; rejects after `timeoutMs`. */
  next(match: (e: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** A minimal SSE reader over plain HTTP, so tests see exactly what a browser's EventSource would. */
export function openEventStream(
  baseUrl: string,
  headers: Record<string, string>,
  path = "/api/events",
): Promise<EventStreamClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      new URL(path, baseUrl),
      { headers: { accept: "text/event-stream", ...headers } },
      (res) => {
        const events: StreamEvent[] = [];
        const comments: number[] = [];
        const waiters: { match: (e: StreamEvent) => boolean; done: (e: StreamEvent) => void }[] = [];
        let buffer = "";
        let endResolve: () => void = () => {};
        const ended = new Promise<void>((r) => {
          endResolve = r;
        });
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          let cut = buffer.indexOf("\n\n");
          while (cut >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            cut = buffer.indexOf("\n\n");
            const e: StreamEvent = { event: "message", data: "" };
            let hasField = false;
            for (const line of block.split("\n")) {
              if (line.startsWith(":")) {
                comments.push(Date.now());
                continue;
              }
              const [field, ...rest] = line.split(":");
              const value = rest.join(":").replace(/^ /, "");
              hasField = true;
              if (field === "id") e.id = value;
              else if (field === "event") e.event = value;
              else if (field === "data") e.data = value;
            }
            if (!hasField) continue;
            events.push(e);
            for (const w of [...waiters]) {
              if (w.match(e)) {
                waiters.splice(waiters.indexOf(w), 1);
                w.done(e);
              }
            }
          }
        });
        res.on("end", endResolve);
        res.on("close", endResolve);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          comments,
          ended,
          next(match, timeoutMs = 5_000) {
            const found = events.find(match);
            if (found) return Promise.resolve(found);
            return new Promise((done, fail) => {
              const timer = setTimeout(
                () =>
                  fail(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`)),
                timeoutMs,
              );
              waiters.push({
                match,
                done: (e) => {
                  clearTimeout(timer);
                  done(e);
                },
              });
            });
          },
          close() {
            req.destroy();
          },
        });
      },
    );
    req.on("error", reject);
  });
}

/** The topics of a `change` event. */
export const topicsOf = (e: StreamEvent): string[] =>
  e.event === "change" ? (JSON.parse(e.data) as { topics: string[] }).topics : [];
