import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/tests/support/test-app";

/** A raw TCP client: everything the server sent, and whether it hung up. */
function rawClient(port: number, localAddress = "127.0.0.1") {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress });
  let received = "";
  socket.on("data", (d) => (received += d.toString("latin1")));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return { socket, closed, connected, received: () => received };
}

/** One keep-alive request on the socket; resolves with the status once the whole answer is in. */
async function askHealth(client: ReturnType<typeof rawClient>): Promise<number | "closed"> {
  await client.connected;
  const before = client.received().length;
  client.socket.write("GET /healthz HTTP/1.1\r\nHost: pillar.test\r\n\r\n");
  return new Promise((resolve) => {
    const check = () => {
      const answer = client.received().slice(before);
      const match = /^HTTP\/1\.1 (\d{3})[\s\S]*\r\n\r\n\{[^}]*\}/.exec(answer);
      if (match) {
        client.socket.off("data", check);
        resolve(Number(match[1]));
      }
    };
    client.socket.on("data", check);
    void client.closed.then(() => resolve("closed"));
  });
}

async function listen(t: TestApp): Promise<number> {
  const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
  return Number(new URL(address).port);
}

describe("slow clients", () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ REQUEST_TIMEOUT_MS: "1000", HEADERS_TIMEOUT_MS: "500" });
    port = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("cuts off a client trickling a request body with 408 and closes the socket", async () => {
    const client = rawClient(port);
    await client.connected;
    client.socket.write(
      "POST /api/auth/login HTTP/1.1\r\nHost: pillar.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
    );
    // One byte every 100 ms would take 100 s to finish the body; the server must not wait for it.
    const trickle = setInterval(() => client.socket.writable && client.socket.write(" "), 100);
    await client.closed;
    clearInterval(trickle);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  }, 20_000);

  it("cuts off a client that never finishes its headers", async () => {
    const client = rawClient(port);
    await client.connected;
    client.socket.write("GET /healthz HTTP/1.1\r\nHost: pillar.test\r\n");
    const trickle = setInterval(() => client.socket.writable && client.socket.write("X-Slow: a\r\n"), 100);
    await client.closed;
    clearInterval(trickle);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  }, 20_000);

  it("still answers a client that sends a whole request", async () => {
    const client = rawClient(port);
    expect(await askHealth(client)).toBe(200);
    client.socket.destroy();
  });
});

describe("connection caps", () => {
  let t: TestApp;
  let port: number;
  const clients: ReturnType<typeof rawClient>[] = [];
  const open = (localAddress: string) => {
    const client = rawClient(port, localAddress);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    t = await createTestApp({ MAX_CONNECTIONS: "4", MAX_CONNECTIONS_PER_IP: "2" });
    port = await listen(t);
  });
  afterAll(async () => {
    for (const c of clients) c.socket.destroy();
    await t.close();
  });

  it("refuses the connection one address opens past its cap, and serves other addresses", async () => {
    const first = open("127.0.0.1");
    const second = open("127.0.0.1");
    expect(await askHealth(first)).toBe(200);
    expect(await askHealth(second)).toBe(200);

    const third = open("127.0.0.1");
    expect(await askHealth(third)).toBe("closed");
    expect(third.received()).toBe("");

    expect(await askHealth(open("127.0.0.2"))).toBe(200);
  });

  it("refuses any connection past the total cap, and accepts again once one closes", async () => {
    const fourth = open("127.0.0.3");
    expect(await askHealth(fourth)).toBe(200);
    const fifth = open("127.0.0.4");
    expect(await askHealth(fifth)).toBe("closed");
    expect(fifth.received()).toBe("");

    fourth.socket.destroy();
    await fourth.closed;
    // The server sees the close a moment after the client does: retry until the slot is free.
    let status: number | "closed" = "closed";
    for (let attempt = 0; attempt < 50 && status === "closed"; attempt++) {
      status = await askHealth(open("127.0.0.5"));
    }
    expect(status).toBe(200);
  });
});

describe("connection caps behind a trusted proxy", () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ MAX_CONNECTIONS: "10", MAX_CONNECTIONS_PER_IP: "2", TRUST_PROXY: "127.0.0.1" });
    port = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("does not cap the proxy's own address per IP (it carries every client), only other peers", async () => {
    const fromProxy = [rawClient(port), rawClient(port), rawClient(port)];
    for (const c of fromProxy) expect(await askHealth(c)).toBe(200);
    const direct = [rawClient(port, "127.0.0.9"), rawClient(port, "127.0.0.9"), rawClient(port, "127.0.0.9")];
    expect(await askHealth(direct[0]!)).toBe(200);
    expect(await askHealth(direct[1]!)).toBe(200);
    expect(await askHealth(direct[2]!)).toBe("closed");
    for (const c of [...fromProxy, ...direct]) c.socket.destroy();
  });
});
