import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder holding package.json. Found by walking up from this module because the same code runs from
 * server/lib/ (tsx: dev, tests, CLI) and from the bundle in dist/server/ (npm start, Docker), at different
 * depths; runtime files (migrations, the built SPA) are then named from the root, never from this file.
 */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export const PROJECT_ROOT = findProjectRoot();
