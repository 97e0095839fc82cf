import type { Config } from "@/server/config";
import { createLocalStorage } from "@/server/lib/storage/local-storage";
import { createS3Storage } from "@/server/lib/storage/s3-storage";
import type { ObjectStorage } from "@/server/lib/storage/storage";

/** The back end named by STORAGE: local disk under $DATA_DIR/objects (default) or an S3-compatible bucket. */
export function createStorage(config: Pick<Config, "storage" | "dataDir">): ObjectStorage {
  if (config.storage.kind === "local") return createLocalStorage(config.dataDir);
  const { bucket, ...s3 } = config.storage.s3;
  if (!bucket) throw new Error("S3_BUCKET is required when STORAGE=s3");
  return createS3Storage({ bucket, ...s3 });
}
