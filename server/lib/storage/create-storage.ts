import type { Config } from "@/server/config";
import { createLocalStorage } from "@/server/lib/storage/local-storage";
import type { S3StorageOptions } from "@/server/lib/storage/s3-storage";
import type { ObjectStorage } from "@/server/lib/storage/storage";

/** The back end named by STORAGE: local disk under $DATA_DIR/objects (default) or an S3-compatible bucket. */
export function createStorage(config: Pick<Config, "storage" | "dataDir">): ObjectStorage {
  if (config.storage.kind === "local") return createLocalStorage(config.dataDir);
  const { bucket, ...s3 } = config.storage.s3;
  if (!bucket) throw new Error("S3_BUCKET is required when STORAGE=s3");
  return lazyS3Storage({ bucket, ...s3 });
}

/** The AWS SDK (~30 MiB resident) is imported on the first storage call, so local-disk processes never load it. */
function lazyS3Storage(options: S3StorageOptions): ObjectStorage {
  let loaded: Promise<ObjectStorage> | undefined;
  const s3 = () => {
    loaded ??= import("@/server/lib/storage/s3-storage").then((m) => m.createS3Storage(options));
    return loaded;
  };
  return {
    kind: "s3",
    presignUpload: async (key, expiresInSeconds) => (await s3()).presignUpload(key, expiresInSeconds),
    put: async (key, body, contentType, size) => (await s3()).put(key, body, contentType, size),
    stat: async (key) => (await s3()).stat(key),
    readStart: async (key, bytes) => (await s3()).readStart(key, bytes),
    open: async (key, openOptions) => (await s3()).open(key, openOptions),
    delete: async (key) => (await s3()).delete(key),
    sweepPartialWrites: async (olderThanMs) => (await s3()).sweepPartialWrites(olderThanMs),
    close: async () => {
      if (loaded) await (await loaded).close();
    },
  };
}
