export declare const SOURCE: string;
export declare const ARTIFACT: string;
export declare function compilePillarUsd(): { abi: unknown[]; bytecode: `0x${string}`; compiler: string };
export declare function artifactSource(built: { abi: unknown[]; bytecode: string; compiler: string }): string;
