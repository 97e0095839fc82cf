import http from "node:http";

export interface ClientReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  /** The app wrote this reply (it carries X-Request-Id), not the load balancer's own 502/503. */
  fromApp: boolean;
  /** The backend that answered, from the balancer's X-Served-By. */
  servedBy?: string;
}

export interface ClientRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * Local loopback address to connect from (127.0.0.2, 127.0.1.7…): a distinct client as the balancer sees
   * it, so per-IP limits behind X-Forwarded-For can be told apart on one machine.
   */
  from?: string;
}

/** One HTTP request on its own connection (no pooling), rejecting only on a network error. */
export function request(baseUrl: string, path: string, options: ClientRequest = {}): Promise<ClientReply> {
  const url = new URL(path, baseUrl);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? "GET",
        agent: false,
        localAddress: options.from,
        headers: {
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // HAProxy's own error pages are HTML.
          }
          const servedBy = res.headers["x-served-by"];
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            fromApp: typeof res.headers["x-request-id"] === "string",
            servedBy: typeof servedBy === "string" ? servedBy : undefined,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
