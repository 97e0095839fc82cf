export interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

export function staticClosure(manifest: Manifest, keys: string[]): Set<string>;
export function findAdminCode(
  manifest: Manifest,
  chunkModules: Record<string, string[]>,
  source: string,
): string[];
