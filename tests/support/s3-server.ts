import fs from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** Env for createTestApp: STORAGE=s3 against this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export function isS3rverInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve("s3rver");
    return true;
  } catch {
    return false;
  }
}

/** A real S3-protocol server (s3rver) on a random 127.0.0.1 port, with one empty bucket, files in a temp dir. */
export async function startS3Server(bucket = "pillar-test"): Promise<TestS3Server> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverConstructor;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
