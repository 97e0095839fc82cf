import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { normaliseObjectPath } from "@/contract/kyc";
import { createLocalStorage } from "@/server/lib/storage/local-storage";
import { objectKeyFromPath } from "@/server/lib/storage/uploads";
import { PNG } from "@/tests/support/files";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-storage-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const key = "uploads/3f2b8c1e-0a4d-4b6e-9f10-2c3d4e5f6a7b";

describe("local storage", () => {
  const storage = createLocalStorage(dataDir);

  it("writes, stats, reads the start of, streams and deletes an object under $DATA_DIR/objects", async () => {
    expect(await storage.presignUpload(key, 60)).toBeNull();
    await storage.put(key, PNG, "image/png");
    expect(fs.readFileSync(path.join(dataDir, "objects", key)).equals(PNG)).toBe(true);
    expect(await storage.stat(key)).toEqual({ size: PNG.length, etag: null });
    expect((await storage.readStart(key, 8)).equals(PNG.subarray(0, 8))).toBe(true);
    const opened = await storage.open(key);
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(PNG)).toBe(true);
    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
    expect(await storage.open(key)).toBeNull();
  });

  it("refuses any key it did not generate, so nothing outside the root is reachable", async () => {
    for (const bad of [
      "../secrets.json",
      "uploads/../../x",
      "/etc/passwd",
      "uploads/abc",
      "uploads/3F2B8C1E-0A4D-4B6E-9F10-2C3D4E5F6A7B",
    ]) {
      await expect(storage.stat(bad)).rejects.toThrow(/Invalid object key/);
      await expect(storage.put(bad, PNG, "image/png")).rejects.toThrow(/Invalid object key/);
    }
  });
});

describe("object paths", () => {
  it("maps /objects/uploads/<uuid> to its key and nothing else", () => {
    expect(objectKeyFromPath(`/objects/${key}`)).toBe(key);
    for (const bad of [
      "/objects/../x",
      `/objects/${key}/..`,
      `objects/${key}`,
      `/objects/${key}.png`,
      "/objects/",
    ]) {
      expect(objectKeyFromPath(bad)).toBeNull();
    }
  });

  it("normalises an S3 URL with the private segment to /objects/{path}", () => {
    expect(normaliseObjectPath(`http://127.0.0.1:4568/bucket/.private/${key}?X-Amz-Signature=abc`)).toBe(
      `/objects/${key}`,
    );
    expect(normaliseObjectPath(`https://bucket.s3.amazonaws.com/.private/${key}`)).toBe(`/objects/${key}`);
    expect(normaliseObjectPath(`/objects/${key}?x=1`)).toBe(`/objects/${key}`);
    expect(normaliseObjectPath("https://example.com/other/path")).toBe("https://example.com/other/path");
  });
});
