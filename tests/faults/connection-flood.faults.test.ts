import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { type ServerProcess, startServer } from "@/tests/support/server-process";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

/** The server's open-file limit: small, so a few hundred sockets would exhaust it without the cap. */
const FD_LIMIT = 220;
const FLOOD = 400;

let scratch: ScratchDatabase;
let server: ServerProcess;
let customer: SignedInUser;
const sockets: net.Socket[] = [];

/** A keep-alive connection that sends whole requests and reads whole (small, JSON) answers. */
function connection() {
  const socket = net.connect(server.port, "127.0.0.1");
  sockets.push(socket);
  socket.on("error", () => {});
  let buffer = "";
  socket.on("data", (d) => (buffer += d.toString("latin1")));
  const closed = new Promise<"closed">((resolve) => socket.on("close", () => resolve("closed")));
  return {
    socket,
    /** The answer's status and body, or "closed" when the server hung up instead. */
    async request(path: string, headers: Record<string, string> = {}) {
      buffer = "";
      const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: pillar.test\r\n${extra.join("")}\r\n`);
      const answer = new Promise<{ status: number; body: string }>((resolve) => {
        const check = () => {
          const head = /^HTTP\/1\.1 (\d{3})[\s\S]*?content-length: (\d+)[\s\S]*?\r\n\r\n/i.exec(buffer);
          if (!head) return;
          const body = buffer.slice(head[0].length);
          if (body.length < Number(head[2])) return;
          socket.off("data", check);
          resolve({ status: Number(head[1]), body });
        };
        socket.on("data", check);
      });
      return Promise.race([answer, closed]);
    },
  };
}

beforeAll(async () => {
  scratch = await createScratchDatabase(process.env.DATABASE_URL!);
  customer = await createVerifiedUser(scratch.database);
  server = await startServer(
    {
      DATABASE_URL: scratch.url,
      RATE_LIMIT_SCALE: "1000",
      HEADERS_TIMEOUT_MS: "60000",
      REQUEST_TIMEOUT_MS: "60000",
    },
    { fdLimit: FD_LIMIT },
  );
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await server?.stop();
  await scratch?.drop();
});

describe("a flood of idle connections on a process with few file descriptors", () => {
  it("refuses connections past the cap and keeps serving database-backed requests", async () => {
    const customers = Array.from({ length: 5 }, () => connection());
    for (const c of customers) expect(await c.request("/healthz")).toMatchObject({ status: 200 });

    // Each flood connection asks once and then sits idle, holding its socket, as a slow client does.
    let held = 0;
    let refused = 0;
    for (let i = 0; i < FLOOD; i++) {
      const answer = await connection().request("/healthz");
      if (answer === "closed") refused++;
      else held++;
    }
    expect(refused).toBeGreaterThan(0);
    expect(held + customers.length).toBeLessThan(FD_LIMIT);

    // Five requests at once need new pool connections, i.e. new file descriptors.
    const answers = await Promise.all(
      customers.map((c) => c.request("/api/account/summary", { cookie: customer.cookie })),
    );
    for (const answer of answers) expect(answer).toMatchObject({ status: 200 });
    expect(await customers[0]!.request("/healthz")).toMatchObject({ status: 200 });
    expect(server.output()).not.toMatch(/EMFILE/);
  });
});
