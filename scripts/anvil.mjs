// Starts a local anvil node from the binary the npm registry's @foundry-rs/anvil-<platform> package carries
// (installed with the devDependencies; nothing is downloaded at run time). Used by the chain tests
// (tests/support/anvil.ts) and by `CHAIN=local npm start`.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";

const require = createRequire(import.meta.url);

/** The anvil binary's path, or null when this platform's package is not installed. */
export function anvilBinary() {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const name = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    const dir = path.dirname(require.resolve(`${name}/package.json`));
    return path.join(dir, "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
  } catch {
    return null;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts anvil on a free port (or `port`) and resolves once it answers JSON-RPC. `blockTime` in seconds
 * (unset: a block per transaction, and blocks mined on demand with anvil_mine).
 */
export async function startAnvil({ port, chainId = 31337, blockTime, quiet = true } = {}) {
  const binary = anvilBinary();
  if (!binary) throw new Error(`no anvil binary for ${process.platform}-${process.arch}: run npm install`);
  const chosen = port ?? (await freePort());
  const args = ["--host", "127.0.0.1", "--port", String(chosen), "--chain-id", String(chainId)];
  if (blockTime) args.push("--block-time", String(blockTime));
  if (quiet) args.push("--silent");
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${chosen}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode}): ${output}`);
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`anvil did not answer on ${url} within 20 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port: chosen,
    chainId,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
