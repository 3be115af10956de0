// The lab file format (labs/<id>/lab.md): YAML frontmatter, then Markdown steps, one per
// "## " heading. Fenced blocks, by tag:
//   vm        commands the learner sends to the VM with a click
//   check     a shell snippet the guest's check agent runs; exit 0 passes the step. Lines it
//             prints starting "FAIL:" are shown to the learner. "```check timeout=30" sets its
//             time limit in seconds (default 10).
//   expect    YAML: what the kernel must have done since the step opened (expect.ts)
//   hint      Markdown, revealed one block at a time
//   solution  commands that do the step, revealed on request (and sent to the VM with a click)
//   predict   YAML: a question answered before a measurement, and where the kernel's answer
//             is found (predict.ts); the step's later commands wait for the answer
//   learned   Markdown: what the step taught, shown once it passes (or is skipped): it may
//             give a prediction's answer away
// Parsing is strict and every error names its line, so `fslab labs check` can point at it.
// The views a lab may name are the topic manifests' (the page passes topics/index.ts's ids,
// the CLI those of topics/node-index.ts): this file names no topic.
import { parse as parseYaml } from "yaml";
import { parseExpect, type Expectation } from "./expect";
import { parsePredict, type Prediction } from "./predict";


export interface LabMeta {
  id: string;
  title: string;
  summary: string;
  time: string;
  topics: string[];
  disks: string[];
  views: string[];
}

export type LabBlock =
  | { kind: "markdown"; text: string; line: number }
  | { kind: "vm"; text: string; line: number }
  | { kind: "check"; text: string; line: number; timeout: number }
  | { kind: "expect"; text: string; line: number; expect: Expectation[] }
  | { kind: "hint"; text: string; line: number }
  | { kind: "solution"; text: string; line: number }
  | { kind: "predict"; text: string; line: number; predict: Prediction }
  | { kind: "learned"; text: string; line: number };

export const BLOCK_TAGS = ["vm", "check", "expect", "hint", "solution", "predict", "learned"] as const;
/** A check's time limit in seconds when its fence names none. */
export const CHECK_TIMEOUT = 10;
/** Frontmatter keys: the first three are required, the rest have defaults. */
const KEYS = ["title", "summary", "id", "time", "topics", "disks", "views"];

export interface LabStep {
  title: string;
  line: number;
  blocks: LabBlock[];
}

export interface Lab {
  meta: LabMeta;
  steps: LabStep[];
}

export class LabFormatError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
  }
}

const FENCE = /^(`{3,}|~{3,})\s*([\w-]*)(.*)$/;

export function parseLab(source: string, knownViews: readonly string[], file = "lab.md", folderId?: string): Lab {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const err = (line: number, msg: string) => new LabFormatError(file, line, msg);

  if (lines[0] !== "---") throw err(1, 'a lab starts with YAML frontmatter: a first line of "---"');
  const end = lines.indexOf("---", 1);
  if (end < 0) throw err(1, 'the frontmatter has no closing "---" line');
  let fm: any;
  try {
    fm = parseYaml(lines.slice(1, end).join("\n"));
  } catch (e: any) {
    const l = e?.linePos?.[0]?.line;
    throw err(l ? l + 1 : 2, `frontmatter is not valid YAML: ${String(e?.message ?? e).split("\n")[0]}`);
  }
  if (!fm || typeof fm !== "object" || Array.isArray(fm)) throw err(2, "frontmatter must be a mapping of keys");
  const lineOf = (key: string) => {
    const i = lines.slice(1, end).findIndex((l) => l.startsWith(`${key}:`));
    return i < 0 ? 1 : i + 2;
  };
  for (const key of Object.keys(fm))
    if (!KEYS.includes(key)) throw err(lineOf(key), `unknown frontmatter key "${key}" (known: ${KEYS.join(", ")})`);
  const str = (key: string, fallback?: string) => {
    if (fm[key] === undefined && fallback !== undefined) return fallback;
    if (typeof fm[key] !== "string" || !fm[key].trim()) throw err(lineOf(key), `frontmatter needs "${key}" (a non-empty string)`);
    return fm[key].trim() as string;
  };
  const list = (key: string) => {
    const v = fm[key] ?? [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw err(lineOf(key), `"${key}" must be a list of strings`);
    return v as string[];
  };
  if (fm.time !== undefined && !(typeof fm.time === "number" && fm.time > 0) && typeof fm.time !== "string")
    throw err(lineOf("time"), `"time" is minutes (a number) or a text such as "15 min"`);
  const meta: LabMeta = {
    // a lab file opened on its own (a preview) has no folder to name it
    id: str("id", folderId ?? "lab"),
    title: str("title"),
    summary: str("summary", ""),
    time: typeof fm.time === "number" ? `${fm.time} min` : str("time", ""),
    topics: list("topics"),
    disks: list("disks"),
    views: list("views"),
  };
  if (!/^[a-z0-9][a-z0-9-]*$/.test(meta.id)) throw err(lineOf("id"), `id "${meta.id}" must be lowercase letters, digits and dashes`);
  if (folderId && meta.id !== folderId) throw err(lineOf("id"), `id "${meta.id}" does not match its folder "${folderId}"`);
  for (const v of meta.views)
    if (!knownViews.includes(v)) throw err(lineOf("views"), `unknown view "${v}" (known: ${knownViews.join(", ")})`);

  const steps: LabStep[] = [];
  let md: string[] = [];
  let mdLine = 0;
  const flush = () => {
    const text = md.join("\n").trim();
    if (text) {
      if (!steps.length) throw err(mdLine, 'text before the first step: start each step with a "## " heading');
      steps.at(-1)!.blocks.push({ kind: "markdown", text, line: mdLine });
    }
    md = [];
  };
  for (let i = end + 1; i < lines.length; i++) {
    const n = i + 1;
    const line = lines[i];
    const fence = line.match(FENCE);
    if (fence) {
      const close = lines.findIndex((l, j) => j > i && l.trim() === fence[1]);
      if (close < 0) throw err(n, `the ${fence[1]} block opened here is never closed`);
      const tag = fence[2];
      const info = fence[3].trim();
      if ((BLOCK_TAGS as readonly string[]).includes(tag)) {
        flush();
        const text = lines.slice(i + 1, close).join("\n").trim();
        if (!text) throw err(n, `empty ${tag} block`);
        if (!steps.length) throw err(n, `a ${tag} block must be inside a step`);
        steps.at(-1)!.blocks.push(block(tag as (typeof BLOCK_TAGS)[number], text, info, n, lines.slice(i + 1, close)));
      } else {
        if (!md.some((l) => l.trim())) mdLine = n;
        md.push(...lines.slice(i, close + 1));
      }
      i = close;
      continue;
    }
    if (/^## /.test(line)) {
      flush();
      const title = line.slice(3).trim();
      if (!title) throw err(n, "a step heading needs a title");
      steps.push({ title, line: n, blocks: [] });
      continue;
    }
    if (/^# /.test(line)) throw err(n, 'use "## " for step headings; the title comes from the frontmatter');
    if (line.trim() && !md.some((l) => l.trim())) mdLine = n;
    md.push(line);
  }
  flush();
  if (!steps.length) throw err(end + 2, 'a lab needs at least one step (a "## " heading)');
  for (const s of steps) {
    if (!s.blocks.length) throw err(s.line, `step "${s.title}" is empty`);
    s.blocks.forEach((b, i) => {
      if (b.kind === "predict" && !s.blocks.slice(i + 1).some((x) => x.kind === "vm"))
        throw err(b.line, "a predict block comes before the measurement it asks about: a vm block after it in the same step");
    });
    for (const b of s.blocks)
      if (b.kind === "expect")
        for (const x of b.expect)
          if (x.verdict !== undefined && !meta.views.includes(x.verdict))
            throw err(b.line, `expect: verdict of view "${x.verdict}", which this lab does not show (its views: ${meta.views.join(", ") || "none"})`);
  }
  if (!meta.time) meta.time = `about ${steps.length * 5} min`;
  return { meta, steps };

  function block(tag: (typeof BLOCK_TAGS)[number], text: string, info: string, n: number, body: string[]): LabBlock {
    if (tag === "check") {
      const m = info.match(/^(?:timeout=(\d+))?$/);
      if (!m) throw err(n, `a check fence takes only "timeout=<seconds>", not "${info}"`);
      const timeout = m[1] ? Number(m[1]) : CHECK_TIMEOUT;
      if (timeout < 1 || timeout > 600) throw err(n, `a check's timeout is 1 to 600 seconds, not ${timeout}`);
      return { kind: "check", text, line: n, timeout };
    }
    if (info) throw err(n, `a ${tag} fence takes nothing after its tag, not "${info}"`);
    if (tag === "expect") {
      const r = parseExpect(body.join("\n"));
      if ("error" in r) throw err(n + r.line, `expect: ${r.error}`);
      return { kind: "expect", text, line: n, expect: r.expect };
    }
    if (tag === "predict") {
      const r = parsePredict(body.join("\n"));
      if ("error" in r) throw err(n + r.line, `predict: ${r.error}`);
      return { kind: "predict", text, line: n, predict: r.predict };
    }
    return { kind: tag, text, line: n };
  }
}
