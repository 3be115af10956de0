// A lab file's frontmatter (lab-format.ts): the YAML between the first two "---" lines, every key
// checked and every error at its line.
import { readYaml } from "./yaml-block";
import { DIFFICULTIES, LAYER_IDS, type Difficulty, type LayerId } from "./stack";
import { fileNameErrors } from "./lab-files";
import { durationSeconds } from "./duration";
import { parseSeed, type SeedParam } from "./seed";

export interface LabMeta {
  id: string;
  title: string;
  summary: string;
  time: string;
  /** seconds a walk of the lab's solutions took in `fslab labs test` (lab-time.ts) */
  walk?: number;
  /** seconds the author expects working things out to take: the challenge, predictions, views */
  think?: number;
  topics: string[];
  disks: string[];
  views: string[];
  /** the lab's place in the suggested course (1 first); labs without one come after, by id */
  order?: number;
  difficulty?: Difficulty;
  /** labs to do first (ids); the course checks they exist and come earlier (course.ts) */
  requires: string[];
  /** the storage-stack layers the lab works at (stack.ts), its card's first */
  layers: LayerId[];
  /** files the lab ships in its folder's files/, put in the guest under /lab/ (lab-files.ts) */
  files: string[];
  /** the per-learner parameters (`seed:`, seed.ts): each learner's values fill the steps' {{templates}} */
  seed: SeedParam[];
}

/** Frontmatter keys: the first three are required, the rest have defaults. */
const KEYS = ["title", "summary", "id", "time", "walk", "think", "topics", "disks", "views", "order", "difficulty", "requires", "layers", "files", "seed"];

/**
 * The frontmatter's keys (lines 1 to end, the file's lines), each checked: an error is handed to
 * fail(line, message); null if it could not be read at all.
 */
export function readFrontmatter(lines: readonly string[], end: number, knownViews: readonly string[], fail: (line: number, msg: string) => void, folderId?: string): LabMeta | null {
  const read = readYaml(lines.slice(1, end).join("\n"));
  if ("error" in read) {
    fail(read.line + 1, `frontmatter: ${read.error}`);
    return null;
  }
  let fm: any;
  try {
    fm = read.doc.toJS();
  } catch (e) {
    fail(2, `frontmatter could not be read: ${String((e as Error)?.message ?? e).split("\n")[0]}`);
    return null;
  }
  if (!fm || typeof fm !== "object" || Array.isArray(fm)) {
    fail(2, "frontmatter must be a mapping of keys");
    return null;
  }
  const lineOf = (key: string) => {
    const i = lines.slice(1, end).findIndex((l) => l.startsWith(`${key}:`));
    return i < 0 ? 1 : i + 2;
  };
  for (const key of Object.keys(fm)) if (!KEYS.includes(key)) fail(lineOf(key), `unknown frontmatter key "${key}" (known: ${KEYS.join(", ")})`);
  const str = (key: string, fallback?: string) => {
    if (fm[key] === undefined && fallback !== undefined) return fallback;
    if (typeof fm[key] !== "string" || !fm[key].trim()) {
      fail(lineOf(key), `frontmatter needs "${key}" (a non-empty string)`);
      return fallback ?? "";
    }
    return fm[key].trim() as string;
  };
  const list = (key: string) => {
    const v = fm[key] ?? [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
      fail(lineOf(key), `"${key}" must be a list of strings`);
      return [];
    }
    return v as string[];
  };
  let time = "";
  if (fm.time !== undefined && !(typeof fm.time === "number" && fm.time > 0) && typeof fm.time !== "string")
    fail(lineOf("time"), `"time" is minutes (a number) or a text such as "15 min"`);
  else time = typeof fm.time === "number" ? `${fm.time} min` : str("time", "");
  const m: LabMeta = {
    // a lab file opened on its own (a preview) has no folder to name it
    id: str("id", folderId ?? "lab"),
    title: str("title"),
    summary: str("summary", ""),
    time,
    topics: list("topics"),
    disks: list("disks"),
    views: list("views"),
    requires: list("requires"),
    layers: [],
    files: list("files"),
    seed: [],
  };
  const seed = parseSeed(fm.seed);
  for (const e of seed.errors) fail(lineOf("seed"), e);
  m.seed = seed.params;
  for (const key of ["walk", "think"] as const) {
    if (fm[key] === undefined) continue;
    const s = durationSeconds(fm[key]);
    if (s === null) fail(lineOf(key), `"${key}" is a duration: "40 s", "1.5 min" or minutes as a number, not ${JSON.stringify(fm[key])}`);
    else m[key] = s;
  }
  for (const e of fileNameErrors(m.files)) fail(lineOf("files"), `files: ${e}`);
  if (fm.order !== undefined) {
    if (Number.isInteger(fm.order) && fm.order >= 1) m.order = fm.order;
    else fail(lineOf("order"), `"order" is the lab's place in the course: a whole number from 1, not ${JSON.stringify(fm.order)}`);
  }
  if (fm.difficulty !== undefined) {
    if ((DIFFICULTIES as readonly unknown[]).includes(fm.difficulty)) m.difficulty = fm.difficulty;
    else fail(lineOf("difficulty"), `"difficulty" is one of ${DIFFICULTIES.join(", ")}, not ${JSON.stringify(fm.difficulty)}`);
  }
  for (const r of m.requires)
    if (!/^[a-z0-9][a-z0-9-]*$/.test(r)) fail(lineOf("requires"), `"requires" lists lab ids (folder names), and "${r}" is none`);
    else if (r === m.id) fail(lineOf("requires"), `a lab cannot require itself ("${r}")`);
  for (const l of list("layers")) {
    if (!LAYER_IDS.includes(l)) fail(lineOf("layers"), `unknown layer "${l}" (the stack, top to bottom: ${LAYER_IDS.join(", ")})`);
    else if (m.layers.includes(l as LayerId)) fail(lineOf("layers"), `layer "${l}" is listed twice`);
    else m.layers.push(l as LayerId);
  }
  if (!/^[a-z0-9][a-z0-9-]*$/.test(m.id)) fail(lineOf("id"), `id "${m.id}" must be lowercase letters, digits and dashes`);
  else if (folderId && m.id !== folderId) fail(lineOf("id"), `id "${m.id}" does not match its folder "${folderId}"`);
  for (const v of m.views) if (!knownViews.includes(v)) fail(lineOf("views"), `unknown view "${v}" (known: ${knownViews.join(", ")})`);
  return m;
}