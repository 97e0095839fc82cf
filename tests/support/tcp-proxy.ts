import net from "node:net";

export interface TcpProxy {
  port: number;
  /** Whether the proxy currently passes traffic. */
  isUp(): boolean;
  /** Simulates the target going away: open connections are destroyed and new ones are refused. */
  cut(): Promise<void>;
  /** Listens again on the same port and forwards new connections. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A loopback TCP forwarder to `target`, so a test can take a backing service away from the app and give it back. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // A reset from either side is expected here; the pair is torn down together below.
    socket.on("error", () => {});
  };

  const listen = async () => {
    const s = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      track(client);
      track(upstream);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => resolve());
    });
    port = (s.address() as net.AddressInfo).port;
    server = s;
  };

  const stop = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    isUp: () => server !== undefined,
    cut: stop,
    async restore() {
      if (!server) await listen();
    },
    close: stop,
  };
}
