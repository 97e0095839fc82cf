import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// create_transfer_request refuses a customer holding a staff role, with outcome 'staff_account', before it
// touches the wallet.
const step: MigrationStep = {
  async after(db) {
    const [fn] = await db.query<{ body: string }>(
      "select prosrc as body from pg_proc where proname = 'create_transfer_request'",
    );
    expect(fn?.body).toContain("'staff_account'");
  },
};
export default step;
