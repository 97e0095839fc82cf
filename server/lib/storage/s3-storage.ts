import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { PRIVATE_OBJECT_SEGMENT } from "@/contract/kyc";
import { assertObjectKey, type ObjectStorage } from "@/server/lib/storage/storage";

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

const QUIET_LOGGER = { debug() {}, info() {}, warn() {}, error() {} };

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NotFound" || e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404;
};
const isReplaced = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "PreconditionFailed" || e.$metadata?.httpStatusCode === 412;
};

/**
 * Objects in an S3-compatible bucket under `.private/<key>`: the browser PUTs straight to a presigned URL,
 * and reads always go through the app so the owner/admin check applies.
 */
export function createS3Storage(options: S3StorageOptions): ObjectStorage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Default checksums would be signed into presigned URLs (the browser cannot match them) and are not
    // understood by every S3-compatible server.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Without a logger the SDK writes to the console when a streamed PUT fails (as ours does on purpose when
    // an upload is refused midway); every failure is thrown to the caller anyway.
    logger: QUIET_LOGGER,
  });
  const Bucket = options.bucket;
  const s3Key = (key: string) => {
    assertObjectKey(key);
    return `${PRIVATE_OBJECT_SEGMENT}/${key}`;
  };

  return {
    kind: "s3",
    async presignUpload(key, expiresInSeconds) {
      return getSignedUrl(client, new PutObjectCommand({ Bucket, Key: s3Key(key) }), {
        expiresIn: expiresInSeconds,
      });
    },
    async put(key, body, contentType, size) {
      const length = Buffer.isBuffer(body) ? body.length : size;
      // A single PUT of known length streams the body through; S3 stores it whole or not at all, so a
      // stream that fails midway leaves no object behind.
      if (length === undefined) throw new Error("S3 put of a stream needs its size");
      // The SDK pipes the body into its request and never hears of the body's own failure (too large, client
      // gone): abort the request then, or it waits for bytes that never come.
      const abort = new AbortController();
      let failure: unknown;
      const onError = (err: unknown) => {
        failure = err;
        abort.abort();
      };
      if (!Buffer.isBuffer(body)) body.once("error", onError);
      try {
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key: s3Key(key),
            Body: body,
            ContentType: contentType,
            ContentLength: length,
          }),
          { abortSignal: abort.signal },
        );
      } catch (err) {
        // S3 keeps nothing of a PUT that did not complete; some S3-compatible servers keep what arrived. The
        // key is this upload's own (written once), so removing it can only remove the broken write.
        await client.send(new DeleteObjectCommand({ Bucket, Key: s3Key(key) })).catch(() => {});
        throw failure ?? err;
      } finally {
        if (!Buffer.isBuffer(body)) body.off("error", onError);
      }
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: s3Key(key) }));
        return { size: head.ContentLength ?? 0, etag: head.ETag ?? null };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async readStart(key, bytes) {
      try {
        const res = await client.send(
          new GetObjectCommand({ Bucket, Key: s3Key(key), Range: `bytes=0-${Math.max(0, bytes - 1)}` }),
        );
        return Buffer.from((await res.Body?.transformToByteArray()) ?? []);
      } catch (err) {
        // An empty object has no byte 0: S3 answers 416 InvalidRange.
        if ((err as { name?: string }).name === "InvalidRange") return Buffer.alloc(0);
        throw err;
      }
    },
    async open(key, { ifMatch } = {}) {
      try {
        const res = await client.send(
          new GetObjectCommand({ Bucket, Key: s3Key(key), IfMatch: ifMatch ?? undefined }),
        );
        const stream = res.Body as Readable | undefined;
        // Not every S3-compatible server honours If-Match: compare the answer's ETag as well.
        if (!stream || (ifMatch && res.ETag !== ifMatch)) {
          stream?.destroy();
          return null;
        }
        return { stream, size: res.ContentLength ?? 0, etag: res.ETag ?? null };
      } catch (err) {
        if (isMissing(err) || isReplaced(err)) return null;
        throw err;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: s3Key(key) }));
    },
    async sweepPartialWrites() {
      // A PUT to S3 is atomic: an interrupted upload leaves no object behind.
      return 0;
    },
    async close() {
      client.destroy();
    },
  };
}
