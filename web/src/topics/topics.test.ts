// The topic manifests: what the shell, the lab validator and the CLI read instead of lists of
// their own. Each entry must point at a module that exists and exports what it says.
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

  it("each button a playground or view names as bringing out its widest content is a text of its topic's pages", () => {
    for (const t of TOPICS) {
      const dir = new URL(`./${t.id}/`, import.meta.url);
      const pages = readdirSync(dir).filter((f) => f.endsWith(".tsx") && !f.includes(".test.")).map((f) => readFileSync(new URL(f, dir), "utf8")).join("\n");
      for (const x of [...t.playgrounds, ...t.views]) for (const b of x.widest ?? []) expect(pages, `${t.id}: "${b}"`).toContain(b);
    }
  });

  it("the layout e2e test takes its pages from labs/ and the manifests: it names no lab, route or button", () => {
    const text = readFileSync(new URL("../../../e2e/layout.e2e.ts", import.meta.url), "utf8");
    const labs = readdirSync(new URL("../../../labs/", import.meta.url));
    expect(labs.length).toBeGreaterThan(0);
    for (const id of labs) expect(text, `lab ${id}`).not.toMatch(new RegExp(`#/lab/${id}\\b|["'\`]${id}["'\`]`));
    for (const p of PLAYGROUNDS) expect(text, `playground ${p.route}`).not.toMatch(new RegExp(`#/play/${p.route}\\b|["'\`]${p.route}["'\`]`));
    for (const b of [...PLAYGROUNDS, ...VIEWS].flatMap((x) => x.widest ?? [])) expect(text, `button "${b}"`).not.toContain(`"${b}"`);
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
