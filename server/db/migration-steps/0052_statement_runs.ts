import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// The month-end statement run (decision 062): statement_runs, one row per month ('YYYY-MM') with its cursor, and
// statements, one customer's figures for a closed month, written once (user + month), closing = opening + in + out.
const statement = (user: string, month: string, closing: number): [string, unknown[]] => [
  `insert into statements (user_id, month, wallet_id, opening, money_in, money_out, fees, closing, count, digest)
   values ($1, $2, gen_random_uuid(), 1000, 500, -300, -25, $3, 3, 'sha256:step0052')`,
  [user, month, closing],
];

const step: MigrationStep = {
  async before(db) {
    const [customer] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0052@example.test', 'Stella', 'Statement', 'step0052', 'x') returning id`,
    );
    db.shared.set("0052.customer", customer!.id);
  },
  async after(db) {
    const customer = db.shared.get("0052.customer")!;
    // A run starts 'running' at 0 done; a month is 'YYYY-MM' and has one run.
    const run = "insert into statement_runs (month, total) values ($1, 10)";
    expect(await db.fails(run, ["2024-05"])).toBeNull();
    const [started] = await db.query(
      "select status, cursor, done, finished_at from statement_runs where month = '2024-05'",
    );
    expect(started).toEqual({ status: "running", cursor: null, done: 0, finished_at: null });
    expect((await db.fails(run, ["2024-05"]))?.code).toBe("23505");
    for (const month of ["2024-13", "2024-5", "24-05", "2024-00"])
      expect((await db.fails(run, [month]))?.code, month).toBe("23514");
    expect(
      (await db.fails("update statement_runs set status = 'paused' where month = '2024-05'"))?.code,
    ).toBe("23514");
    expect(
      await db.fails("update statement_runs set status = 'done', done = 10 where month = '2024-05'"),
    ).toBeNull();

    // 1000 + 500 - 300 = 1200: a statement that does not balance is refused, and a month is written once.
    expect((await db.fails(...statement(customer, "2024-05", 1175)))?.code).toBe("23514");
    expect(await db.fails(...statement(customer, "2024-05", 1200))).toBeNull();
    expect((await db.fails(...statement(customer, "2024-05", 1200)))?.code).toBe("23505");
    expect(
      (await db.fails(...statement("00000000-0000-4000-8000-000000000052", "2024-05", 1200)))?.code,
    ).toBe("23503");
    // A customer's statements go with the customer (ON DELETE CASCADE).
    await db.query("delete from users where id = $1", [customer]);
    expect(
      await db.query("select count(*)::int as n from statements where user_id = $1", [customer]),
    ).toEqual([{ n: 0 }]);
  },
};
export default step;
