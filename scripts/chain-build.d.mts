export declare const SOURCE: string;
export declare const ARTIFACT: string;
export declare function compilePillarUsd(): { abi: unknown[]; bytecode: `0x${string}`; compiler: string };
export declare function artifactSource(built: { abi: unknown[]; bytecode: string; compiler: string }): string;
export declare const FORWARDERS_SOURCE: string;
export declare const FORWARDERS_ARTIFACT: string;
export declare function compileDepositForwarders(): {
  abi: unknown[];
  bytecode: `0x${string}`;
  forwarderBytecode: `0x${string}`;
  compiler: string;
};
export declare function forwardersArtifactSource(built: {
  abi: unknown[];
  bytecode: string;
  forwarderBytecode: string;
  compiler: string;
}): string;
