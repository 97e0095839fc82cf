/**
 * One migration's before/after test (decision 076): `before` writes rows as the schema before the migration holds
 * them (a database upgraded in production is never empty), the runner applies the migration, and `after` checks
 * what it did to those rows and to the schema. The runner (server/db/migration-steps.api.test.ts) walks one
 * database through every migration in order, so rows written before an early migration also meet every later one.
 */
export interface MigrationStep {
  before?(db: StepDb): Promise<void>;
  after(db: StepDb): Promise<void>;
}

export interface StepDb {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** The error a statement fails with (its SQLSTATE and message), or null when it succeeds. */
  fails(text: string, params?: unknown[]): Promise<{ code: string; message: string } | null>;
  /** PostgreSQL (true) or PGlite (false): the partitioning migration (0053) changes nothing on PGlite. */
  pg: boolean;
  /** Rows shared between steps (ids written by one step's `before` and read by a later `after`). */
  shared: Map<string, string>;
}
