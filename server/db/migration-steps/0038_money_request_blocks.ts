import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// A payer blocks a requester (decision 037): one row per pair, never oneself; a blocked requester's new requests
// are written withheld. Requests made before the migration are not withheld.
const BLOCK = `insert into money_request_blocks (id, payer_id, requester_id, requester_tag) values (gen_random_uuid(), $1, $2, $3)`;

const step: MigrationStep = {
  async before(db) {
    const users = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0038-payer@example.test', 'Pia', 'Payer', 'step0038payer', 'x'),
              ('step0038-asker@example.test', 'Rex', 'Asker', 'step0038asker', 'x')
       returning id`,
    );
    const [payer, requester] = users.map((u) => u.id);
    const [request] = await db.query<{ id: string }>(
      `insert into money_requests (id, requester_id, payer_id, requester_tag, payer_tag, amount, note)
       values (gen_random_uuid(), $1, $2, 'step0038asker', 'step0038payer', 1200, 'Pizza') returning id`,
      [requester, payer],
    );
    db.shared.set("0038.payer", payer!);
    db.shared.set("0038.requester", requester!);
    db.shared.set("0038.request", request!.id);
  },
  async after(db) {
    const payer = db.shared.get("0038.payer")!;
    const requester = db.shared.get("0038.requester")!;
    const [request] = await db.query<{ withheld: boolean; status: string }>(
      "select withheld, status from money_requests where id = $1",
      [db.shared.get("0038.request")],
    );
    expect(request).toEqual({ withheld: false, status: "open" });

    expect(await db.fails(BLOCK, [payer, requester, "step0038asker"])).toBeNull();
    expect((await db.fails(BLOCK, [payer, requester, "step0038asker"]))?.code).toBe("23505");
    expect((await db.fails(BLOCK, [payer, payer, "step0038payer"]))?.code).toBe("23514");
    expect((await db.fails(BLOCK, [payer, requester, null]))?.code).toBe("23502");
    // The other way round is another pair: the requester may block the payer.
    expect(await db.fails(BLOCK, [requester, payer, "step0038payer"])).toBeNull();
    const [withheld] = await db.query<{ withheld: boolean }>(
      `insert into money_requests (id, requester_id, payer_id, requester_tag, payer_tag, amount, withheld)
       values (gen_random_uuid(), $1, $2, 'step0038asker', 'step0038payer', 500, true) returning withheld`,
      [requester, payer],
    );
    expect(withheld).toEqual({ withheld: true });
  },
};
export default step;
