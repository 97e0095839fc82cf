import type { FastifyInstance } from "fastify";

/**
 * Once the app starts closing (SIGTERM in a rolling deploy), every response says `Connection: close`. A load
 * balancer keeps idle keep-alive connections to each instance; without this the connections that were busy
 * at SIGTERM stay open after their last response, the server waits out their idle timeout, and the process
 * is killed by the shutdown deadline instead of exiting cleanly once its in-flight requests are answered.
 */
export function registerGracefulClose(app: FastifyInstance) {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  // Callback hooks on the per-request path: an async hook costs a promise and a microtask turn per request.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
}
