// fslab labs check [dir]: parse every labs/<id>/lab.md as the page does; print each error
// as file:line: message and exit 1 if there is any.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseLab } from "../../web/src/labs/lab-format";
import { loadTopics } from "../../web/src/topics/node-index";
import { parseExport, reportCsv, reportRow, reportText, sha256Hex, type ReportRow } from "../../web/src/labs/report";
import { UsageError } from "../../web/src/shared/cli-args";
import { labIndex } from "../../web/src/labs/lab-index";
import { labFolders } from "../../web/labs-files";

export async function labsCheck(dir = "labs"): Promise<number> {
  if (!existsSync(dir)) {
    console.error(`fslab labs check: no directory ${dir}`);
    return 1;
  }
  const views = (await loadTopics()).flatMap((t) => t.views.map((v) => v.id));
  let bad = 0;
  const ids = readdirSync(dir).filter((d) => statSync(join(dir, d)).isDirectory());
  for (const id of ids) {
    const file = join(dir, id, "lab.md");
    const name = relative(process.cwd(), file);
    if (!existsSync(file)) {
      console.error(`${name}: missing (every lab folder needs a lab.md)`);
      bad++;
      continue;
    }
    try {
      const lab = parseLab(readFileSync(file, "utf8"), views, name, id);
      console.log(`ok  ${name}: ${lab.meta.title} (${lab.steps.length} step${lab.steps.length === 1 ? "" : "s"})`);
    } catch (e) {
      console.error(e instanceof Error ? e.message : String(e));
      bad++;
    }
  }
  console.log(`${ids.length - bad} of ${ids.length} labs valid`);
  return bad ? 1 : 0;
}

/**
 * fslab labs report FILE|DIR... [--csv] [--labs DIR]: the progress files learners downloaded
 * ("Download my progress"), one row each; a file made on another version of its lab (its
 * lab.md hash differs from the one in --labs, default labs/) is marked. Unreadable files are
 * named on stderr and make the exit status 1; the table still lists the others.
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
    if (statSync(p).isDirectory()) files.push(...readdirSync(p).filter((f) => f.endsWith(".json")).sort().map((f) => join(p, f)));
    else files.push(p);
  }
  const hashes = new Map<string, string | undefined>();
  const hashOf = async (lab: string) => {
    if (!hashes.has(lab)) {
      const f = join(labsDir, lab, "lab.md");
      hashes.set(lab, existsSync(f) ? await sha256Hex(readFileSync(f, "utf8")) : undefined);
    }
    return hashes.get(lab);
  };
  const rows: ReportRow[] = [];
  let bad = 0;
  for (const f of files) {
    const x = parseExport(readFileSync(f, "utf8"));
    if ("error" in x) {
      console.error(`${f}: ${x.error}`);
      bad++;
      continue;
    }
    rows.push(reportRow(f, x, await hashOf(x.lab)));
  }
  process.stdout.write(csv ? reportCsv(rows) : reportText(rows));
  const other = rows.filter((r) => r.otherVersion).length;
  if (!csv) console.error(`${rows.length} progress file${rows.length === 1 ? "" : "s"}${other ? `, ${other} for another version of its lab` : ""}${bad ? `, ${bad} unreadable` : ""}`);
  return bad ? 1 : 0;
}

/**
 * fslab labs index DIR: write DIR/index.json, the list of lab folders the page reads at run
 * time, so a lab copied into a hosted site (web/dist/labs/ or wherever it is served) appears
 * without a rebuild. Each lab is checked as `labs check` does; a broken one is still listed
 * (the page shows its error) and makes the exit status 1.
 */
export async function labsIndex(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0].startsWith("--")) throw new UsageError("labs index takes one directory: the site's labs/ folder");
  const dir = args[0];
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`labs index: no directory ${dir}`);
  const views = (await loadTopics()).flatMap((t) => t.views.map((v) => v.id));
  const ids = labFolders(dir);
  let bad = 0;
  for (const id of ids) {
    try {
      parseLab(readFileSync(join(dir, id, "lab.md"), "utf8"), views, join(dir, id, "lab.md"), id);
    } catch (e) {
      console.error(e instanceof Error ? e.message : String(e));
      bad++;
    }
  }
  const skipped = readdirSync(dir).filter((d) => statSync(join(dir, d)).isDirectory() && !ids.includes(d));
  for (const d of skipped) console.error(`${join(dir, d)}: not listed (a lab folder is named in lowercase letters, digits and dashes, and holds a lab.md)`);
  writeFileSync(join(dir, "index.json"), JSON.stringify(labIndex(ids), null, 2) + "\n");
  console.log(`wrote ${join(dir, "index.json")}: ${ids.length} lab${ids.length === 1 ? "" : "s"}${bad ? `, ${bad} with errors (shown on the page as such)` : ""}`);
  return bad ? 1 : 0;
}
