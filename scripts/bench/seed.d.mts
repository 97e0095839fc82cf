export declare const BENCH_PASSWORD: string;
export declare function benchEmail(n: number): string;
/** Seeds users with funded wallets, approved KYC and accounts, history and sessions (scripts/bench/seed.mjs). */
export declare function seed(options: {
  url: string;
  users: number;
  transactionsPerUser: number;
  sessionUsers: number;
}): Promise<{ tokens: string[] }>;
