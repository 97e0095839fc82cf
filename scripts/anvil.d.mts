import type { ChildProcess } from "node:child_process";

export interface AnvilNode {
  url: string;
  port: number;
  chainId: number;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}
export declare function anvilBinary(): string | null;
export declare function startAnvil(options?: {
  port?: number;
  chainId?: number;
  blockTime?: number;
  quiet?: boolean;
}): Promise<AnvilNode>;
