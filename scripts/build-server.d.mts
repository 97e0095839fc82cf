export const serverOutDir: string;
export function buildServer(options?: { logLevel?: "silent" | "warning" | "info" }): Promise<void>;
export function newestSourceMtime(): number;
export function webBuildIsStale(): boolean;
export function buildWeb(): number;
