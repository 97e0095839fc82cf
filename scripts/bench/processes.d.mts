import type { ChildProcess } from "node:child_process";

export function freePort(): Promise<number>;
export function startServer(options: {
  args: string[];
  env: NodeJS.ProcessEnv;
  readyUrl: string;
  cwd: string;
  name: string;
  timeoutMs?: number;
}): Promise<{ child: ChildProcess; log: () => string }>;
export function stopProcess(child: ChildProcess | undefined): Promise<void>;
export function rssMiB(pid: number): number | null;
export function runNode(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }>;
