// fslab export scorm LAB... --out DIR|FILE.zip [--version 1.2|2004] [--base URL]: labs as SCORM
// packages an LMS takes (Moodle, Canvas, Blackboard, Open edX, Brightspace; docs/hosting.md). A
// package holds the built site (web/dist: the page, the kernel and its saved machine, the labs)
// and an imsmanifest.xml whose items launch the page at each lab for the LMS's runtime
// (web/src/labs/scorm.ts); with --base, only a launch page that opens the lab from the
// instructor's hosted site (web/src/labs/scorm-launch.ts). FILE.zip: one package with every lab
// named (a course); DIR: one package per lab, DIR/<lab>.zip.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { spawnSync } from "node:child_process";
import { zipSync, type Zippable } from "fflate";
import { UsageError } from "../../web/src/shared/cli-args";
import { scormManifest, type ManifestLab } from "../../web/src/labs/scorm-manifest";
import type { ScormVersion } from "../../web/src/labs/scorm";
import { labContext, readLab } from "./labs";
import { launchHtml, launchScript } from "../../web/src/labs/scorm-launch";

const REPO = resolve(dirname(new URL(import.meta.url).pathname), "../..");
const USAGE = "usage: fslab export scorm LAB... --out DIR|FILE.zip [--version 1.2|2004] [--base URL] [--labs DIR]";

/** files already compressed: stored as they are in the zip */
const STORED = /\.(zst|xz|gz|png|jpe?g|woff2?|zip)$/;

function walk(dir: string, root = dir): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? walk(p, root) : [relative(root, p).split(sep).join("/")];
    });
}

/**
 * Where a lab's folder (its lab.md, the other files beside it and its files/, as the build copies
 * them: web/labs-files.ts) differs from the built site's copy: the first such path, or null.
 */
export function labDiffers(source: string, built: string): string | null {
  const listed = (dir: string) => (existsSync(dir) ? walk(dir).filter((f) => !f.includes("/") || f.startsWith("files/")) : []);
  const a = listed(source);
  const b = new Set(listed(built));
  for (const f of a) if (!b.delete(f) || !readFileSync(join(source, f)).equals(readFileSync(join(built, f)))) return f;
  return b.size ? [...b][0] : null;
}

/** The built site: web/dist, built first if it is not there (vite build, as `npm run build`). */
function builtSite(site: string): string {
  if (existsSync(join(site, "index.html"))) return site;
  if (resolve(site) !== join(REPO, "web/dist")) throw new Error(`${site} holds no built site (no index.html)`);
  console.error("fslab export scorm: building the site first (vite build)...");
  const r = spawnSync(process.execPath, [join(REPO, "node_modules/vite/bin/vite.js"), "build", "--config", "web/vite.config.ts", "--logLevel", "error"], { cwd: REPO, stdio: "inherit" });
  if (r.status !== 0 || !existsSync(join(site, "index.html"))) throw new Error("the site did not build (vite build failed: see above)");
  return site;
}

export interface ScormPackage {
  path: string;
  files: number;
  bytes: number;
}

const packageTitle = (labs: readonly ManifestLab[]) => (labs.length === 1 ? labs[0].title : `fslab: ${labs.length} labs (${labs.map((l) => l.id).join(", ")})`);
const enc = (s: string) => new TextEncoder().encode(s);
const ZIP_TIME = { mtime: new Date("2026-01-01T00:00:00Z") };

/** One package's bytes: the site's files and the manifest for these labs. */
export function packageZip(site: string, files: readonly string[], version: ScormVersion, labs: readonly ManifestLab[]): Uint8Array {
  const manifest = scormManifest({ version, title: packageTitle(labs), labs, href: "index.html", files });
  const zip: Zippable = { "imsmanifest.xml": enc(manifest) };
  for (const f of files) zip[f] = [new Uint8Array(readFileSync(join(site, f))), { level: STORED.test(f) ? 0 : 6 }];
  return zipSync(zip, ZIP_TIME);
}

/** A package that loads its labs from a hosted site: the manifest, the launch page and its script. */
export function launcherZip(base: string, version: ScormVersion, labs: readonly ManifestLab[]): Uint8Array {
  const files = ["launch.html", "launch.js"];
  const manifest = scormManifest({ version, title: packageTitle(labs), labs, href: "launch.html", files, parameters: (id) => `?lab=${id}` });
  return zipSync({ "imsmanifest.xml": enc(manifest), "launch.html": enc(launchHtml(packageTitle(labs))), "launch.js": enc(launchScript({ version, base })) }, ZIP_TIME);
}

/** --base: the hosted site's address, as the launch page opens it (http(s), ending in /) */
function baseUrl(s: string): string {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new UsageError(`--base: "${s}" is not an address (https://labs.example.edu/fslab/)`, USAGE);
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new UsageError(`--base: "${s}" is not an http or https address`, USAGE);
  if (u.search || u.hash) throw new UsageError(`--base: "${s}" has a query or fragment: name the site's folder`, USAGE);
  return u.href.endsWith("/") ? u.href : `${u.href}/`;
}

export async function exportScorm(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { out: { type: "string" }, version: { type: "string", default: "1.2" }, base: { type: "string" }, labs: { type: "string", default: "labs" }, site: { type: "string", default: join(REPO, "web/dist") } },
    allowPositionals: true,
  });
  if (!positionals.length) throw new UsageError("name the labs to package (their ids, e.g. exfat-discard)", USAGE);
  if (!values.out) throw new UsageError("--out: where the package goes (a FILE.zip for one package of every lab named, a DIR for one per lab)", USAGE);
  const version = values.version as ScormVersion;
  if (version !== "1.2" && version !== "2004") throw new UsageError(`--version: "${values.version}" is not 1.2 or 2004 (SCORM 2004 is 4th Edition)`, USAGE);
  // the labs as this repository has them (their titles), each checked
  const { views } = await labContext();
  const labs: ManifestLab[] = [];
  for (const id of positionals) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) throw new UsageError(`"${id}" is not a lab id (a lab's folder name)`, USAGE);
    const file = join(values.labs, id, "lab.md");
    if (!existsSync(file)) throw new Error(`there is no lab "${id}" (no ${file})`);
    const r = readLab({ file, folder: id }, views, { quiet: true });
    if (!r.lab) throw new Error(`${id} has errors:\n${r.errors.join("\n")}`);
    labs.push({ id, title: r.lab.meta.title });
  }
  const base = values.base === undefined ? null : baseUrl(values.base);
  const site = base ? null : builtSite(values.site);
  if (site)
    for (const l of labs) {
      if (!existsSync(join(site, "labs", l.id, "lab.md"))) throw new Error(`the built site has no lab "${l.id}": build it again (npm run build)`);
      // the package holds the site's copy: one edited since the build would go in as it was
      const changed = labDiffers(join(values.labs, l.id), join(site, "labs", l.id));
      if (changed) throw new Error(`${join(values.labs, l.id, changed)} is not as the built site has it (${join(site, "labs", l.id, changed)}): build the site again (npm run build), so that the package holds the lab as it is now`);
    }
  const files = site ? walk(site) : ["launch.html", "launch.js"];
  const make = (ls: ManifestLab[]) => (site ? packageZip(site, files, version, ls) : launcherZip(base!, version, ls));
  const out: ScormPackage[] = [];
  const write = (path: string, bytes: Uint8Array) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    out.push({ path, files: files.length + 1, bytes: bytes.length });
  };
  if (values.out.endsWith(".zip")) write(values.out, make(labs));
  else for (const l of labs) write(join(values.out, `${l.id}.zip`), make([l]));
  const what = base ? `the labs from ${base}` : "the site inside";
  for (const p of out) console.log(`${p.path}: SCORM ${version} package (${what}), ${p.files} files, ${p.bytes < 2 ** 20 ? `${(p.bytes / 1024).toFixed(1)} KiB` : `${(p.bytes / 2 ** 20).toFixed(1)} MiB`}`);
  return 0;
}
