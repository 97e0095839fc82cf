export const serverOutDir: string;
export function buildServer(options?: { logLevel?: "silent" | "warning" | "info" }): Promise<void>;
export function newestSourceMtime(): number;
