import net from "node:net";

export interface TcpProxy {
  port: number;
  /** Whether the proxy currently passes traffic. */
  isUp(): boolean;
  /** Simulates the target going away: open connections are destroyed and new ones are refused. */
  cut(): Promise<void>;
  /**
   * Simulates a network partition or a frozen server: connections stay open but nothing passes, and new
   * ones are accepted and never answered. Only a timeout on the app's side gets it out of this.
   */
  stall(): Promise<void>;
  /**
   * The next statement whose bytes contain `marker` reaches the server, but nothing the server sends back on
   * that connection reaches the app any more: a connection lost while the server committed (the app cannot
   * know whether it did). restore() tears that connection down.
   */
  dropAnswersAfter(marker: string): void;
  /** Forwards again: after cut(), listens on the same port; after stall(), drops the stalled connections. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A loopback TCP forwarder to `target`, so a test can take a backing service away from the app and give it back. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  let stalled = false;
  let dropMarker: string | undefined;
  const dropping = new Set<net.Socket>();

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // A reset from either side is expected here; the pair is torn down together below.
    socket.on("error", () => {});
  };

  const listen = async () => {
    const s = net.createServer((client) => {
      if (stalled) {
        track(client);
        client.pause();
        return;
      }
      const upstream = net.connect(target.port, target.host);
      track(client);
      track(upstream);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      client.on("data", (chunk: Buffer) => {
        if (dropMarker !== undefined && chunk.includes(dropMarker)) {
          dropMarker = undefined;
          // From now on the server's answers on this connection are read and thrown away.
          upstream.unpipe(client);
          upstream.resume();
          dropping.add(upstream);
        }
      });
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
    async stall() {
      stalled = true;
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
      }
    },
    dropAnswersAfter(marker) {
      dropMarker = marker;
    },
    async restore() {
      for (const socket of dropping) socket.destroy();
      dropping.clear();
      if (stalled) {
        // Like a partition healing after the peers gave up: the frozen connections are gone.
        stalled = false;
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      }
      if (!server) await listen();
    },
    close: stop,
  };
}
