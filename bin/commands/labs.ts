// fslab labs check|index|report (labs test is labs-test.ts). check and index take a labs
// folder (every lab folder in it), one lab's folder or its lab.md, parse each lab as the page
// does, print every error as file:line: message (and every warning), and exit 1 if there is
// any error, or no lab at all.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parseLab, labErrorLines, LabFormatError, type Lab, type ParseOptions } from "../../web/src/labs/lab-format";
import { loadTopics } from "../../web/src/topics/node-index";
import { gradebook, learnerOf, markCopies, parseExport, reportRow, reportText, sha256Hex, type ProgressExport, type QuestionKey, type ReportRow } from "../../web/src/labs/report";
import { judgeAnswer } from "../../web/src/labs/question";
import { computeKey, keyImage } from "../../web/src/labs/keys";
import { loadCoreModule } from "../../web/src/shared/node-load";
import { UsageError } from "../../web/src/shared/cli-args";
import { labIndex, LAB_ID } from "../../web/src/labs/lab-index";
import { labFolders } from "../../web/labs-files";
import { courseErrors, courseGaps, keyLine, type CourseLab } from "../../web/src/labs/course";
import { fileSizeErrors } from "../../web/src/labs/lab-files";
import { timeError, timeWarning } from "../../web/src/labs/lab-time";
import { knownAnswers, type KnownAnswer } from "../../web/src/labs/keys";
import { knownGraders, type KnownGrader } from "../../web/src/labs/code-block";
import type { TopicManifest } from "../../web/src/shared/topic";
import { cardOf } from "../../web/src/labs/course-card-make";
import { readContext, type CourseCard } from "../../web/src/labs/course-cards";

export interface FoundLab {
  /** the lab's folder name: its id must match it (none for a lab file not called lab.md) */
  folder?: string;
  /** the lab file, as messages name it (relative to the working directory) */
  file: string;
}

export interface LabsTarget {
  /** what the path named: a folder of lab folders, one lab's folder, or a lab file */
  kind: "labs" | "lab" | "file";
  /** the folder that holds the lab folders: where labs index writes index.json */
  root: string;
  labs: FoundLab[];
  /** sub-folders of a labs folder without a lab.md */
  notLabs: string[];
}

const shown = (p: string) => relative(process.cwd(), p) || ".";
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The labs a path names: a labs folder (each sub-folder holding a lab.md), a lab folder (it
 * holds a lab.md itself), or a lab file. An error (a path that is not there, a folder without
 * any lab) is a sentence for the command to print.
 */
export function findLabs(path: string): LabsTarget | { error: string } {
  if (!existsSync(path)) return { error: `no file or folder ${path}` };
  const full = resolve(path);
  if (!statSync(full).isDirectory()) {
    const folder = basename(full) === "lab.md" ? basename(dirname(full)) : undefined;
    return { kind: "file", root: dirname(dirname(full)), labs: [{ folder, file: shown(full) }], notLabs: [] };
  }
  if (existsSync(join(full, "lab.md"))) return { kind: "lab", root: dirname(full), labs: [{ folder: basename(full), file: shown(join(full, "lab.md")) }], notLabs: [] };
  const subs = readdirSync(full)
    .filter((d) => !d.startsWith(".") && statSync(join(full, d)).isDirectory())
    .sort();
  const labs = subs.filter((d) => existsSync(join(full, d, "lab.md"))).map((d) => ({ folder: d, file: shown(join(full, d, "lab.md")) }));
  if (!labs.length) return { error: `no lab in ${path}: a lab is a folder with a lab.md (name a labs folder, a lab folder or a lab.md)` };
  return { kind: "labs", root: full, labs, notLabs: subs.filter((d) => !existsSync(join(full, d, "lab.md"))).map((d) => shown(join(full, d))) };
}

/** The view ids lab files may name: the topic manifests'. */
export async function viewIds(): Promise<string[]> {
  return (await loadTopics()).flatMap((t) => t.views.map((v) => v.id));
}

/** What a lab is read against: the manifests' views and model answers (and the manifests, to compute the answers). */
export async function labContext(): Promise<{ views: string[]; answers: KnownAnswer[]; graders: KnownGrader[]; topics: TopicManifest[] }> {
  const topics = await loadTopics();
  return { views: topics.flatMap((t) => t.views.map((v) => v.id)), answers: knownAnswers(topics), graders: knownGraders(topics), topics };
}

/**
 * One lab file parsed: the lab, or every error in it (each file:line: message). Warnings are
 * printed here, on stderr, as "warning file:line: ...".
 */
export function readLab(l: FoundLab, views: readonly string[], opts: ParseOptions = {}): { lab: Lab; errors?: undefined } | { lab?: undefined; errors: string[] } {
  let text: string;
  try {
    text = readFileSync(l.file, "utf8");
  } catch (e) {
    return { errors: [`${l.file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : e)})`] };
  }
  try {
    const lab = parseLab(text, views, l.file, l.folder, opts);
    if (!opts.quiet) for (const w of lab.warnings) console.error(`warning ${w.message}`);
    return { lab };
  } catch (e) {
    if (e instanceof LabFormatError && !opts.quiet) for (const w of e.warnings) console.error(`warning ${w.message}`);
    return { errors: labErrorLines(e) };
  }
}

/**
 * The files a lab ships to the guest (its folder's files/, named in `files:`), read from the
 * disk; or what is wrong with them, each `file:line: files: ...` (the line of `files:`).
 */
export function readLabFiles(labFile: string, lab: Lab): { files: Array<{ name: string; data: Uint8Array }>; errors: string[] } {
  const dir = join(dirname(labFile), "files");
  const sizes = lab.meta.files.map((name) => {
    const p = join(dir, name);
    return { name, bytes: existsSync(p) && statSync(p).isFile() ? statSync(p).size : undefined };
  });
  const problems = fileSizeErrors(sizes);
  if (problems.length) {
    const line = keyLine(readFileSync(labFile, "utf8"), "files");
    return { files: [], errors: problems.map((e) => `${labFile}:${line}: files: ${e}`) };
  }
  return { files: lab.meta.files.map((name) => ({ name, data: new Uint8Array(readFileSync(join(dir, name))) })), errors: [] };
}

/** fslab labs check [PATH]: validate a labs folder (default labs/), one lab's folder, or a lab.md. */
export async function labsCheck(path = "labs"): Promise<number> {
  const target = findLabs(path);
  if ("error" in target) {
    console.error(`fslab labs check: ${target.error}`);
    return 1;
  }
  const { views, answers, graders } = await labContext();
  let bad = 0;
  let errors = 0;
  let warnings = 0;
  const course: CourseLab[] = [];
  for (const l of target.labs) {
    const r = readLab(l, views, { answers, graders });
    if (r.errors) {
      for (const line of r.errors) console.error(line);
      bad++;
      errors += r.errors.length;
      continue;
    }
    const shipped = readLabFiles(l.file, r.lab);
    if (shipped.errors.length) {
      for (const line of shipped.errors) console.error(line);
      bad++;
      errors += shipped.errors.length;
      continue;
    }
    warnings += r.lab.warnings.length;
    const source = readFileSync(l.file, "utf8");
    // the stated time against the words read, the measured walk and the thinking (lab-time.ts)
    const late = timeError(r.lab);
    if (late) {
      console.error(`${l.file}:${keyLine(source, "time")}: ${late}`);
      bad++;
      errors++;
    }
    const unmeasured = timeWarning(r.lab, keyLine(source, "time") > 1);
    if (unmeasured) {
      console.error(`warning ${l.file}:${keyLine(source, "time")}: ${unmeasured}`);
      warnings++;
    }
    course.push({ file: l.file, source, lab: r.lab });
    if (!late) console.log(`ok  ${l.file}: ${r.lab.meta.title} (${plural(r.lab.steps.length, "step")})`);
  }
  // a labs folder is a course: its labs' order and prerequisites must agree (course.ts)
  if (target.kind === "labs") {
    const wrong = courseErrors(course);
    for (const e of wrong) console.error(e.message);
    errors += wrong.length;
    bad += new Set(wrong.map((e) => e.file)).size;
    // once some labs of the folder have a place in the course, one without is worth a word
    if (course.some((l) => l.lab.meta.order !== undefined))
      for (const l of course)
        for (const gap of courseGaps(l)) {
          console.error(`warning ${l.file}:1: no ${gap}`);
          warnings++;
        }
  }
  for (const d of target.notLabs) {
    console.error(`${d}: no lab.md (every lab folder needs one)`);
    bad++;
    errors++;
  }
  const n = target.labs.length + target.notLabs.length;
  const w = warnings ? ` (${plural(warnings, "warning")})` : "";
  console.log(bad ? `${n - bad} of ${plural(n, "lab")} valid: ${plural(errors, "error")}${w}` : `${plural(n, "lab")} valid${w}`);
  return bad ? 1 : 0;
}

/** Every *.json file under a folder, its sub-folders too (not hidden ones), in path order. */
function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...jsonFiles(p));
    else if (e.name.endsWith(".json")) out.push(p);
  }
  return out;
}

/**
 * fslab labs report FILE|DIR... [--csv] [--labs DIR]: the progress files learners downloaded
 * ("Download my progress"), one row each, grouped by the learner's name or ID; with --csv the
 * gradebook instead: one row per learner, one column group per lab (report.ts's gradebook). A
 * folder is read with its sub-folders (a class's folder of one folder per learner). A file made on another version of its lab (its lab.md
 * hash differs from the one in --labs, default labs/) is marked; the report says which labs
 * folder it compared against. A file it cannot read is named on stderr and makes the exit
 * status 1; the table still lists the others. No progress file at all is exit 1.
 */
export async function labsReport(args: string[]): Promise<number> {
  const csv = args.includes("--csv");
  const li = args.indexOf("--labs");
  if (li >= 0 && !args[li + 1]) throw new UsageError("--labs needs a directory");
  const labsDir = li >= 0 ? args[li + 1] : "labs";
  const paths = args.filter((a, i) => a !== "--csv" && (li < 0 || (i !== li && i !== li + 1)));
  for (const a of paths) if (a.startsWith("--")) throw new UsageError(`labs report: unknown option ${a}`);
  if (!paths.length) throw new UsageError("labs report needs progress files or folders of them");
  const files: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) {
      // a path that is not there is a failed run (exit 1, one line), as for fslab inspect
      console.error(`fslab labs report: no file or folder ${p}`);
      return 1;
    }
    if (statSync(p).isDirectory()) files.push(...jsonFiles(p));
    else files.push(p);
  }
  if (!files.length) {
    console.error(`fslab labs report: no progress file (*.json) in ${paths.join(", ")}, nor in any folder under it`);
    return 1;
  }
  const labsThere = existsSync(labsDir) && statSync(labsDir).isDirectory();
  const hashes = new Map<string, string | undefined>();
  const hashOf = async (lab: string) => {
    if (!hashes.has(lab)) {
      const f = join(labsDir, lab, "lab.md");
      hashes.set(lab, existsSync(f) ? await sha256Hex(readFileSync(f, "utf8")) : undefined);
    }
    return hashes.get(lab);
  };
  // each file's questions graded against its learner's key, from the lab as it is in --labs
  const context = labsThere ? await labContext() : null;
  const keysFor = async (x: ProgressExport): Promise<QuestionKey[][] | undefined> => {
    const file = join(labsDir, x.lab, "lab.md");
    if (!context || !existsSync(file)) return undefined;
    const identity = x.identity ?? x.learner;
    const r = readLab({ folder: x.lab, file }, context.views, { answers: context.answers, graders: context.graders, quiet: true, ...(identity ? { identity } : {}) });
    if (!r.lab || (r.lab.meta.seed.length && !identity)) return undefined; // whose problem it was is not known
    const lab = r.lab;
    return Promise.all(
      x.steps.map(async (s) => {
        const step = lab.steps.find((t) => t.title === s.title);
        const qs = step?.blocks.flatMap((b) => (b.kind === "question" ? [b.question] : [])) ?? [];
        return Promise.all(
          (s.questions ?? []).map(async (q, k): Promise<QuestionKey> => {
            const mine = qs[k];
            if (!mine?.key || mine.question !== q.question) return null;
            // a key read from the learner's own disk is the one the page recorded: no copy here
            if (keyImage(mine.key, context.answers) !== null) return null;
            const key = await computeKey(context.topics, mine.key, loadCoreModule);
            return { key, judge: (answer) => judgeAnswer(mine, answer, key) };
          }),
        );
      }),
    );
  };
  const rows: ReportRow[] = [];
  let bad = 0;
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f, "utf8");
    } catch (e) {
      console.error(`${f}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : e)})`);
      bad++;
      continue;
    }
    const x = parseExport(text);
    if ("error" in x) {
      console.error(`${f}: ${x.error}`);
      bad++;
      continue;
    }
    rows.push(reportRow(f, x, await hashOf(x.lab), await keysFor(x)));
  }
  markCopies(rows);
  if (csv) {
    const g = gradebook(rows);
    process.stdout.write(g.csv);
    for (const r of g.dropped) console.error(`${r.file}: not in the gradebook: ${learnerOf(r)} sent a newer file for ${r.lab}`);
  } else process.stdout.write(reportText(rows));
  const other = rows.filter((r) => r.otherVersion).length;
  const absent = [...new Set(rows.map((r) => r.lab).filter((l) => hashes.get(l) === undefined))];
  console.error(`${plural(rows.length, "progress file")}${other ? `, ${other} for another version of its lab` : ""}${bad ? `, ${bad} unreadable` : ""}`);
  const unnamed = rows.filter((r) => r.learner === null).length;
  if (unnamed) console.error(`${plural(unnamed, "file")} without the learner's name or ID: each is its own learner, named by its file`);
  const how = li >= 0 ? "" : " (--labs DIR to compare with another)";
  const folder = labsDir.replace(/\/*$/, "/");
  if (!labsThere) console.error(`no labs folder ${folder}: no file was compared with its lab's current version${how}`);
  else console.error(`lab versions compared with the labs in ${folder}${how}${absent.length ? `; not there: ${absent.join(", ")}` : ""}`);
  return bad ? 1 : 0;
}

/**
 * The home page's card of each lab (course-cards.ts), made from its lab.md as the page would
 * parse it (file named labs/<id>/lab.md, the manifests' views, answers and graders).
 */
export function courseCards(
  dir: string,
  ids: string[],
  ctx: { views: string[]; answers: KnownAnswer[]; graders: KnownGrader[] },
  /** labs read already (by folder), with the same views, answers and graders: not parsed again */
  read: ReadonlyMap<string, Lab> = new Map(),
): Record<string, CourseCard> {
  const cards: Record<string, CourseCard> = {};
  const context = readContext(ctx.views, ctx.answers, ctx.graders);
  for (const id of ids) {
    let source: string;
    try {
      source = readFileSync(join(dir, id, "lab.md"), "utf8");
    } catch {
      continue; // the page finds out for itself
    }
    source = source.replace(/^\uFEFF/, ""); // as the page's fetch gives the text: no byte-order mark
    try {
      cards[id] = cardOf(source, { lab: read.get(id) ?? parseLab(source, ctx.views, `labs/${id}/lab.md`, id, { answers: ctx.answers, graders: ctx.graders }) }, context);
    } catch (e) {
      cards[id] = cardOf(source, { error: e instanceof Error ? e.message : String(e) }, context);
    }
  }
  return cards;
}

/**
 * fslab labs index PATH: write index.json, the list of lab folders the page reads at run time,
 * into a site's labs folder, so a lab copied into a hosted site (web/dist/labs/ or wherever it
 * is served) appears without a rebuild. PATH is that labs folder (every lab in it is checked),
 * or one lab's folder or lab.md in it (that lab is checked; the index still lists every lab
 * folder beside it). Each lab is checked as `labs check` does; a broken one is still listed
 * (the page shows its errors) and makes the exit status 1.
 */
export async function labsIndex(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0].startsWith("--")) throw new UsageError("labs index takes one path: a site's labs folder, a lab folder in it, or its lab.md");
  const target = findLabs(args[0]);
  if ("error" in target) {
    console.error(`fslab labs index: ${target.error}`);
    return 1;
  }
  if (target.kind === "file" && !target.labs[0].folder) {
    console.error(`fslab labs index: ${args[0]} is not a lab.md: the page reads each lab from <labs folder>/<id>/lab.md`);
    return 1;
  }
  const dir = target.root;
  const ctx = await labContext();
  const views = ctx.views;
  let bad = 0;
  // each lab is read once: checked here, its card made from the same reading
  const read = new Map<string, Lab>();
  for (const l of target.labs) {
    const r = readLab(l, views, { answers: ctx.answers, graders: ctx.graders });
    if (r.errors) {
      for (const line of r.errors) console.error(line);
      bad++;
      continue;
    }
    if (l.folder) read.set(l.folder, r.lab);
    if (target.kind !== "labs") console.log(`ok  ${l.file}: ${r.lab.meta.title} (${plural(r.lab.steps.length, "step")})`);
  }
  const ids = labFolders(dir);
  for (const l of target.labs)
    if (l.folder && !LAB_ID.test(l.folder)) {
      console.error(`${shown(join(dir, l.folder))}: not listed: a lab folder is named in lowercase letters, digits and dashes`);
      bad++;
    }
  if (target.kind === "labs") for (const d of target.notLabs) console.error(`${d}: not listed (a lab folder holds a lab.md)`);
  const index = join(dir, "index.json");
  writeFileSync(index, JSON.stringify(labIndex(ids, courseCards(dir, ids, ctx, read)), null, 2) + "\n");
  const checked = target.kind === "labs" ? (bad ? `, ${bad} with errors (shown on the page as such)` : "") : `; ${bad ? "the lab checked has errors (the page shows them)" : "1 lab valid"}`;
  console.log(`wrote ${shown(index)}: ${plural(ids.length, "lab")}${checked}`);
  return bad ? 1 : 0;
}
