// At most five `any` in the page's and the command line's code (tests aside): each one is a
// place the type checker stops looking. Counted by TypeScript's parser (the `any` keyword in
// a type, a cast or a catch clause; not the word in a comment or a string), and listed by
// file and line when the count passes the budget.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUDGET = 5;

/** where `any` is written in a TypeScript source, as 1-based lines */
export function anyLines(source: string, tsx = false): number[] {
  const sf = ts.createSourceFile("x.ts", source, ts.ScriptTarget.Latest, true, tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: number[] = [];
  const visit = (n: ts.Node) => {
    if (n.kind === ts.SyntaxKind.AnyKeyword) out.push(sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

describe("the any budget", () => {
  it(`web/src and bin hold at most ${BUDGET} \`any\` outside tests`, () => {
    const found = ["web/src", "bin"].flatMap(sources).flatMap((f) => anyLines(readFileSync(join(ROOT, f), "utf8"), f.endsWith(".tsx")).map((l) => `${relative(ROOT, join(ROOT, f))}:${l}`));
    expect(found.length, `\`any\` at:\n  ${found.join("\n  ")}`).toBeLessThanOrEqual(BUDGET);
  });

  it("counts the keyword in types, casts and catch clauses, not the word in comments or strings", () => {
    const src = [
      "// any comment with any in it",
      'const s = "any";',
      "let v: any;",
      "const w = (globalThis as any).x;",
      "try { f(); } catch (e: any) { g(e); }",
      "type M = Record<string, any>;",
    ].join("\n");
    expect(anyLines(src)).toEqual([3, 4, 5, 6]);
    expect(anyLines("const C = (p: any) => <div>{p.x}</div>;", true)).toEqual([1]);
  });
});
