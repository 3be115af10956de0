// The topic manifests: what the shell, the lab validator and the CLI read instead of lists of
// their own. Each entry must point at a module that exists and exports what it says.
import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BENCHES, PLAYGROUNDS, TOPICS, VIEWS, VIEW_IDS } from ".";
import { loadCli, loadTopics } from "./node-index";
import { checkParam, describeParam } from "../shared/params";
import { DD_DEFAULTS } from "./blk/blk-core";
import { FXMARK_COSTS } from "./f2fs/fxmark";
import { BLK_PARAMS } from "./blk/params";
import { F2FS_PARAMS } from "./f2fs/params";

const folders = readdirSync(new URL(".", import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

describe("topic manifests", () => {
  it("every topic folder has a manifest named after it, found by the page's index and by Node's alike", async () => {
    expect(TOPICS.map((t) => t.id)).toEqual(folders);
    const node = await loadTopics();
    expect(node.map((t) => t.id)).toEqual(folders);
    expect(node.flatMap((t) => t.views.map((v) => v.id))).toEqual(VIEW_IDS);
  });

  it("routes, view ids and command names are unique", () => {
    const unique = (xs: string[]) => expect(new Set(xs).size).toBe(xs.length);
    unique(PLAYGROUNDS.map((p) => p.route));
    unique(VIEWS.map((v) => v.id));
    unique(BENCHES.map((b) => b.route));
    unique(TOPICS.flatMap((t) => t.cli.map((c) => c.name)));
  });

  it("every playground, view and benchmark page loads a component", async () => {
    for (const p of PLAYGROUNDS) expect(typeof (await p.load()), `playground ${p.route}`).toBe("function");
    for (const v of VIEWS) expect(typeof (await v.load()), `view ${v.id}`).toBe("function");
    for (const b of BENCHES) expect(typeof (await b.load()), `bench ${b.route}`).toBe("function");
  });

  it("every CLI command's module exists beside its manifest and exports the command", async () => {
    for (const t of await loadTopics())
      for (const c of t.cli) {
        expect(existsSync(new URL(`./${t.id}/${c.module}`, import.meta.url)), `${t.id}/${c.module}`).toBe(true);
        const cmd = await loadCli(t, c);
        expect(typeof cmd.run).toBe("function");
        expect(cmd.usage).toMatch(new RegExp(`fslab simulate ${c.name}\\b`));
      }
  });

  it("a CLI spec that names a missing command is an error naming the file", async () => {
    const t = TOPICS.find((x) => x.cli.length)!;
    await expect(loadCli(t, { ...t.cli[0], name: "no-such-command" })).rejects.toThrow(/has no command "no-such-command"/);
  });

  it("a CLI module whose name does not end in cli.ts, or that is not beside topic.ts, is refused", async () => {
    const t = TOPICS.find((x) => x.cli.length)!;
    for (const module of ["model.ts", "sub/cli.ts", "../blk/cli.ts"])
      await expect(loadCli(t, { ...t.cli[0], module })).rejects.toThrow(/a CLI module is a file beside topic\.ts whose name ends in cli\.ts/);
  });

  it("every parameter's default is in its own range, and the defaults are the models' own", () => {
    for (const p of [...PLAYGROUNDS, ...VIEWS])
      for (const [name, spec] of Object.entries(p.params)) {
        expect(checkParam(spec, String(spec.default)), `${name}: ${describeParam(spec)}`).toEqual({ value: spec.default });
      }
    expect(BLK_PARAMS.fifo_batch.default).toBe(DD_DEFAULTS.fifo_batch);
    expect(BLK_PARAMS.writes_starved.default).toBe(DD_DEFAULTS.writes_starved);
    expect(F2FS_PARAMS.remote_ns.default).toBe(FXMARK_COSTS.remote_ns);
    expect(F2FS_PARAMS.nat_scan_ns.default).toBe(FXMARK_COSTS.nat_scan_ns);
  });
});
