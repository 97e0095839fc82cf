export declare const SERVER_MEMORY_FLAGS: string[];
export declare const SERVER_NODE_FLAGS: string[];
