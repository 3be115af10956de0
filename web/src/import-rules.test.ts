// Which part of fslab may import which, checked on every source file (like Perfetto's
// tools/check_imports): the rules are data below, each import is read by TypeScript's own
// pre-processor (static, dynamic and type imports alike), and a broken rule names the file, the
// import and the rule. A new topic folder is checked with no list to edit.
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCANNED = ["web", "bin", "kernel-image", "e2e", "bench", "wasm"];
const SKIPPED = new Set(["node_modules", "dist", "build", "dist-debug"]);

/** An import between two of our files, paths relative to the repository. */
export interface Edge {
  from: string;
  to: string;
}

export interface Rule {
  name: string;
  /** the importing files the rule is about; its groups reach `forbid` */
  from: RegExp;
  /** what such a file must not import */
  forbid: (to: string, match: RegExpExecArray, from: string) => boolean;
  /** files the rule leaves out, each with the reason */
  except?: Record<string, string>;
}

export const RULES: Rule[] = [
  {
    name: "shared/ imports nothing from vm/, labs/, topics/ or the shell (the types they implement live in shared/)",
    from: /^web\/src\/shared\//,
    forbid: (to) => /^web\/src\/(vm|labs|topics|pages|embed)\//.test(to) || /^web\/src\/App\.tsx$/.test(to),
  },
  {
    name: "a topic imports only shared/ and its own folder (and npm packages, its wasm build, as text its own C sources and the shared C a code grader builds with, in its end-to-end tests the e2e harness, in its bench part the bench harness)",
    from: /^web\/src\/topics\/([^/]+)\//,
    forbid: (to, m, from) =>
      !(from.endsWith(".e2e.ts") && to.startsWith("e2e/") && !to.endsWith(".e2e.ts")) &&
      !(from === `web/src/topics/${m[1]}/bench.ts` && to.startsWith("bench/") && !to.startsWith("bench/parts/")) &&
      !to.startsWith("web/src/shared/") &&
      !to.startsWith(`web/src/topics/${m[1]}/`) &&
      !to.startsWith("wasm/build/wasm/") &&
      !(to.endsWith("?raw") && (to.startsWith(`wasm/src/${m[1]}/`) || to.startsWith("wasm/include/fslab/") || to.startsWith("wasm/src/common/"))),
  },
  {
    name: "the shell, labs, vm and embeds name no topic: they read the manifests (topics/index.ts, node-index.ts)",
    from: /^web\/src\/(?!topics\/)(?!.*\.test\.tsx?$)/,
    forbid: (to) => /^web\/src\/topics\/[^/]+\//.test(to),
  },
  {
    name: "the VM's machine (vm/machine/: v86's parts, the devices, the agent, the saved state) serves both hosts and imports neither (vm/browser/, vm/node/)",
    from: /^web\/src\/vm\/machine\//,
    forbid: (to) => /^web\/src\/vm\/(browser|node)\//.test(to),
  },
  {
    name: "the VM's two hosts import each other's nothing: what both need is the machine's (vm/machine/)",
    from: /^web\/src\/vm\/(browser|node)\//,
    forbid: (to, m) => /^web\/src\/vm\/(browser|node)\//.test(to) && !to.startsWith(`web/src/vm/${m[1]}/`),
  },
  {
    name: "web/ and kernel-image/ import one way: the page's host reads the guest's build (kernel-image/rootfs/chunks.mjs), the guest's build imports nothing of web/",
    from: /^kernel-image\//,
    forbid: (to) => to.startsWith("web/"),
  },
];

/** our source files, relative to the repository */
function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      if (SKIPPED.has(name) || name.startsWith(".")) continue;
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts|mjs)$/.test(name) && !/\.d\.m?ts$/.test(name)) out.push(path);
    }
  };
  for (const d of SCANNED) walk(d);
  return out.sort();
}

/** `spec` as imported by `from`, to a file of ours; null for a package or a Node built-in */
function resolveImport(from: string, spec: string): string | null {
  if (spec.startsWith("@wasm/")) return `wasm/build/wasm/${spec.slice("@wasm/".length)}`;
  if (!spec.startsWith(".")) return null;
  const base = resolve(ROOT, dirname(from), spec);
  const file = [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, join(base, "index.ts")].find((p) => existsSync(p) && statSync(p).isFile());
  return relative(ROOT, file ?? base);
}

/** every import of our files, static, dynamic (`import("./x")`) and type-only */
export function importEdges(files = sources()): Edge[] {
  return files.flatMap((from) => {
    const info = ts.preProcessFile(readFileSync(join(ROOT, from), "utf8"), true, true);
    return info.importedFiles.flatMap((f) => {
      const to = resolveImport(from, f.fileName);
      return to ? [{ from, to }] : [];
    });
  });
}

/** each broken rule as "file imports target: rule" */
export function broken(edges: Edge[], rules = RULES): string[] {
  const out: string[] = [];
  for (const rule of rules)
    for (const e of edges) {
      const m = rule.from.exec(e.from);
      if (m && !rule.except?.[e.from] && rule.forbid(e.to, m, e.from)) out.push(`${e.from} imports ${e.to}: ${rule.name}`);
    }
  return out;
}

/** the import circles (strongly connected files, Tarjan), each as its files */
export function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let n = 0;
  const visit = (v: string) => {
    index.set(v, n);
    low.set(v, n++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || next.get(v)?.includes(v)) out.push(c.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe("import rules", () => {
  const edges = importEdges();

  it("reads the imports of every part, dynamic and type-only ones included", () => {
    // a sample of imports the rules depend on being seen
    expect(edges).toContainEqual({ from: "web/src/topics/blk/topic.ts", to: "web/src/topics/blk/PlayBlk.tsx" }); // import("./PlayBlk")
    expect(edges).toContainEqual({ from: "web/src/shared/topic.ts", to: "web/src/shared/machine.ts" }); // import type
    expect(edges).toContainEqual({ from: "web/src/vm/machine/guest.ts", to: "kernel-image/rootfs/chunks.mjs" });
    expect(edges.length).toBeGreaterThan(500);
  });

  it("every rule holds", () => {
    expect(broken(edges)).toEqual([]);
  });

  it("no file reaches itself through its imports (a manifest and its page included)", () => {
    expect(circles(edges)).toEqual([]);
  });

  it("each rule's exceptions are still needed: an exception no import uses is removed", () => {
    for (const rule of RULES)
      for (const file of Object.keys(rule.except ?? {}))
        expect(edges.some((e) => e.from === file && rule.from.test(file) && rule.forbid(e.to, rule.from.exec(file)!, file)), `${file} no longer breaks "${rule.name}"`).toBe(true);
  });

  it("catches what it is for: shared/ importing vm/, a topic another topic, a shell file a topic, one VM host the other, a circle", () => {
    const bad: Edge[] = [
      { from: "web/src/shared/view/x.ts", to: "web/src/vm/node/node-vm.ts" },
      { from: "web/src/topics/sd/PlaySd.tsx", to: "web/src/topics/blk/blk-core.ts" },
      { from: "web/src/topics/sd/topic.ts", to: "web/src/labs/expect.ts" },
      { from: "web/src/pages/Home.tsx", to: "web/src/topics/exfat/PlayExfat.tsx" },
      { from: "web/src/vm/machine/agent.ts", to: "web/src/vm/browser/vm-host.ts" },
      { from: "web/src/vm/node/node-vm.ts", to: "web/src/vm/browser/page-trouble.ts" },
      { from: "kernel-image/manifest.mjs", to: "web/src/vm/machine/guest.ts" },
      // the e2e harness is for a topic's end-to-end tests only, and they too stay in their topic
      { from: "web/src/topics/exfat/PlayExfat.tsx", to: "e2e/browser.ts" },
      { from: "web/src/topics/exfat/play.e2e.ts", to: "web/src/topics/blk/blk-core.ts" },
      { from: "web/src/topics/exfat/play.e2e.ts", to: "e2e/lab.e2e.ts" },
      // the bench harness is for a topic's bench part only
      { from: "web/src/topics/exfat/exfat-core.ts", to: "bench/report.ts" },
      { from: "web/src/topics/exfat/bench.ts", to: "bench/parts/page.ts" },
    ];
    expect(broken(bad).map((b) => b.split(" imports ")[0]).sort()).toEqual(bad.map((e) => e.from).sort());
    // a test beside the shell may load a topic; a topic may load its own files, shared/ and its core
    const fine: Edge[] = [
      { from: "web/src/labs/lab-format.test.ts", to: "web/src/topics/blk/topic.ts" },
      { from: "web/src/topics/sd/topic.ts", to: "web/src/topics/sd/PlaySd.tsx" },
      { from: "web/src/topics/sd/sd-core.ts", to: "wasm/build/wasm/sd.mjs" },
      { from: "web/src/vm/machine/guest.ts", to: "kernel-image/rootfs/chunks.mjs" },
      { from: "web/src/vm/browser/vm-host.ts", to: "web/src/vm/machine/machine-parts.ts" },
      { from: "web/src/vm/browser/vm-host.ts", to: "web/src/vm/browser/page-trouble.ts" },
      { from: "web/src/topics/exfat/play.e2e.ts", to: "e2e/browser.ts" },
      { from: "web/src/topics/exfat/bench.ts", to: "bench/report.ts" },
    ];
    expect(broken(fine)).toEqual([]);
    expect(circles([{ from: "a.ts", to: "b.tsx" }, { from: "b.tsx", to: "a.ts" }, { from: "b.tsx", to: "c.ts" }])).toEqual([["a.ts", "b.tsx"]]);
  });
});
