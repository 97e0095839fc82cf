import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// One Node version for `npm start`, `npm test`, CI and the image: the one tools/node-runtime pins
// (docs/decisions/015-node-24-from-npm.md).
const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const runtime = JSON.parse(read("tools/node-runtime/package.json")) as {
  version: string;
  optionalDependencies: Record<string, string>;
};
const pinned = runtime.version;

describe("the pinned Node runtime", () => {
  it("is the Node these tests run on", () => {
    expect(
      process.version,
      `tests run on ${process.execPath}, not on the pinned Node ${pinned}: run them through npm (npm test, npx vitest), which puts node_modules/.bin/node first on the PATH. On a platform tools/node-runtime/package.json has no build for, install Node ${pinned} yourself.`,
    ).toBe(`v${pinned}`);
  });

  it("is the same version for every platform build, the Dockerfile's stages and engines", () => {
    for (const [name, version] of Object.entries(runtime.optionalDependencies)) {
      expect(version, name).toBe(pinned);
    }
    const stages = [...read("Dockerfile").matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(stages.length).toBeGreaterThan(0);
    for (const image of stages) expect(image).toBe(`node:${pinned}-bookworm-slim`);
    const pkg = JSON.parse(read("package.json"));
    const [major, minor] = pinned.split(".");
    expect(pkg.engines.node).toBe(`>=${major}.${minor} <${Number(major) + 1}`);
    expect(pkg.devDependencies["@types/node"]).toMatch(new RegExp(`^\\^${major}\\.`));
  });
});
