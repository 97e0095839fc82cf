import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { assertObjectKey, type ObjectStorage } from "@/server/lib/storage/storage";

/** Files under `$DATA_DIR/objects/<key>`; uploads reach it through the app's signed PUT route. */
export function createLocalStorage(dataDir: string): ObjectStorage {
  const root = path.resolve(dataDir, "objects");

  const fileFor = (key: string) => {
    assertObjectKey(key);
    const file = path.resolve(root, key);
    // Belt and braces: the key pattern already rules out "..", but never resolve outside the root.
    if (!file.startsWith(`${root}${path.sep}`)) throw new Error("Object key escapes the storage root");
    return file;
  };

  const statFile = async (file: string) => {
    try {
      const stat = await fs.promises.stat(file);
      return stat.isFile() ? stat : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  };

  return {
    kind: "local",
    async presignUpload() {
      return null;
    },
    async put(key, body) {
      const file = fileFor(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file; a failed write removes its temporary file.
      const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        if (Buffer.isBuffer(body)) await fs.promises.writeFile(temp, body, { mode: 0o600 });
        else await pipeline(body, fs.createWriteStream(temp, { mode: 0o600 }));
        await fs.promises.rename(temp, file);
      } catch (err) {
        await fs.promises.rm(temp, { force: true });
        throw err;
      }
    },
    async stat(key) {
      const stat = await statFile(fileFor(key));
      return stat ? { size: stat.size, etag: null } : null;
    },
    async readStart(key, bytes) {
      const handle = await fs.promises.open(fileFor(key), "r");
      try {
        const buf = Buffer.alloc(bytes);
        const { bytesRead } = await handle.read(buf, 0, bytes, 0);
        return buf.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async open(key) {
      const file = fileFor(key);
      const stat = await statFile(file);
      if (!stat) return null;
      return { stream: fs.createReadStream(file), size: stat.size, etag: null };
    },
    async delete(key) {
      await fs.promises.rm(fileFor(key), { force: true });
    },
    async sweepPartialWrites(olderThanMs) {
      // A kill -9 between writeFile and rename leaves `<key>.<random>.tmp`; nothing ever reads those.
      const dir = path.join(root, "uploads");
      let names: string[];
      try {
        names = await fs.promises.readdir(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
        throw err;
      }
      let removed = 0;
      for (const name of names) {
        if (!name.endsWith(".tmp")) continue;
        const file = path.join(dir, name);
        const stat = await statFile(file);
        if (stat && Date.now() - stat.mtimeMs > olderThanMs) {
          await fs.promises.rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },
    async close() {},
  };
}
