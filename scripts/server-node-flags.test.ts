import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS } from "@/scripts/server-node-flags.mjs";

describe("the server's Node flags", () => {
  it("are the Dockerfile's too, so production runs what npm start and the bench measure", () => {
    const cmd = fs.readFileSync("Dockerfile", "utf8").match(/^CMD (\[.*\])$/m);
    expect(cmd, "the Dockerfile's CMD").not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(["node", ...SERVER_NODE_FLAGS, "dist/server/main.js"]);
  });

  it("are accepted by the pinned Node (a flag it does not know would stop the server at start)", () => {
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, "-e", "process.exit(0)"], {
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
  });
});
