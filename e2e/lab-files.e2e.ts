// A lab's shipped files and set-up script in the real guest: `fslab labs test` on a lab whose
// files/ holds a script, a text file in a sub-folder and binary data, and whose setup-1.sh
// prepares step 1. The step's command needs what the set-up made; its check needs the files
// whole (a sha-256 of the binary) and the script executable.
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHUNK_BYTES } from "../web/src/labs/lab-files";

const dir = mkdtempSync(join(tmpdir(), "fslab-e2e-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a lab's files/ in the guest", () => {
  it("labs test puts them in /lab/, runs setup-1.sh as step 1 opens, and the step passes", () => {
    const bin = Uint8Array.from({ length: CHUNK_BYTES + 1000 }, (_, i) => (i * 131 + 7) & 0xff);
    const sha = createHash("sha256").update(bin).digest("hex");
    const put = (p: string, data: string | Uint8Array) => {
      mkdirSync(join(dir, p, ".."), { recursive: true });
      writeFileSync(join(dir, p), data);
    };
    put("files-demo/files/setup-1.sh", "#!/bin/bash\ncp /lab/data/words.txt /tmp/prepared\n");
    put("files-demo/files/data/words.txt", "one\ntwo\nthree\n");
    put("files-demo/files/bin.dat", bin);
    put(
      "files-demo/lab.md",
      [
        "---",
        "title: Files shipped with a lab",
        "files: [setup-1.sh, data/words.txt, bin.dat]",
        "---",
        "",
        "## Count what the set-up prepared",
        "",
        "```vm",
        "wc -l < /tmp/prepared > /tmp/count",
        "```",
        "",
        "```check",
        'test -e /tmp/count || { echo "FAIL: nothing counted yet"; exit 1; }',
        '[ "$(cat /tmp/count)" = 3 ] || { echo "FAIL: counted $(cat /tmp/count)"; exit 1; }',
        `[ "$(sha256sum /lab/bin.dat | cut -d' ' -f1)" = ${sha} ] || { echo "FAIL: /lab/bin.dat is not whole"; exit 1; }`,
        'test -x /lab/setup-1.sh || { echo "FAIL: the script is not executable"; exit 1; }',
        "```",
        "",
      ].join("\n"),
    );
    const r = spawnSync("node", ["bin/fslab.mjs", "labs", "test", join(dir, "files-demo")], { encoding: "utf8", timeout: 170_000 });
    const all = `${r.stdout}\n${r.stderr}`;
    expect(all).toMatch(/files .*files-demo\/lab\.md: 3 in \/lab\//);
    expect(all).toMatch(/setup .*files-demo\/lab\.md:6: \/lab\/setup-1\.sh ran/);
    expect(all, all).toContain("1 lab passes its checks");
    expect(r.status).toBe(0);
  });
});
