// The fslab command line as a user runs it: the same wasm build as the page, results on
// stdout (JSON with --json), errors that name the problem on stderr with a non-zero status.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { gunzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../", import.meta.url));
// each test spawns the CLI, compiled ahead of time into bin/dist/ (rebuilt first when a source
// is newer: bin/build-cli.mjs)
const fslab = (...args: string[]) => {
  const r = spawnSync(process.execPath, [`${repo}bin/fslab.mjs`, ...args], { encoding: "utf8", cwd: repo });
  return { status: r.status, out: r.stdout, err: r.stderr };
};
const DD_TRACE = "web/src/topics/blk/traces/blk-nullb-dd.trace.gz";

describe("help and version", { timeout: 120_000 }, () => {
  it("fslab --help and -h print the usage on stdout and exit 0", () => {
    for (const flag of ["--help", "-h"]) {
      const r = fslab(flag);
      expect(r.status, r.err).toBe(0);
      expect(r.err).toBe("");
      expect(r.out).toMatch(/^usage:\n {2}fslab vm /);
      for (const cmd of ["vm", "inspect", "simulate", "labs check", "labs test", "labs index", "labs report", "readme", "bench", "bench-vm"])
        expect(r.out).toMatch(new RegExp(`^ {2}fslab ${cmd} `, "m"));
    }
  });

  it("fslab --version prints the package's version and exits 0", () => {
    const { version } = JSON.parse(readFileSync(`${repo}package.json`, "utf8"));
    const r = fslab("--version");
    expect(r.status).toBe(0);
    expect(r.out).toBe(`fslab ${version}\n`);
  });

  it("every command and labs command takes --help: its own usage lines, exit 0", () => {
    // every entry of the usage: its words up to the first option or placeholder
    const usage = fslab("--help").out;
    const commands = [...usage.matchAll(/^ {2}fslab ((?:[a-z][\w-]*)(?: [a-z][\w-]*)*)/gm)].map((m) => m[1]);
    expect(commands).toEqual(expect.arrayContaining(["vm", "inspect", "simulate exfat", "simulate", "labs check", "labs test", "labs index", "labs report", "readme", "bench", "bench-vm"]));
    for (const words of new Set(commands)) {
      const r = fslab(...words.split(" "), "--help");
      expect(r.status, `fslab ${words} --help: ${r.err}`).toBe(0);
      expect(r.out, `fslab ${words} --help`).toMatch(new RegExp(`^usage:?\\s+fslab ${words}\\b`, "m"));
      expect(r.err).toBe("");
    }
    for (const args of [["labs", "-h"], ["simulate", "exfat", "-h"], ["inspect", "--json", "--help"]]) expect(fslab(...args).status, args.join(" ")).toBe(0);
    // a model's --help is its own options, not the list of models
    expect(fslab("simulate", "exfat", "--help").out).toMatch(/^usage: fslab simulate exfat \[--size SIZE\]/);
  });

  it("fslab vm --help never boots the guest: it answers with no kernel to boot", () => {
    // FSLAB_DIST names the kernel to boot; nothing is there, so a boot would fail (exit 1)
    const r = spawnSync(process.execPath, [`${repo}bin/fslab.mjs`, "vm", "--cold", "--help", "--", "true"], { encoding: "utf8", cwd: repo, env: { ...process.env, FSLAB_DIST: "/no/such/dist" } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage:\n {2}fslab vm \[--cold\]/);
    // the same without --help does try to boot, and fails on the missing kernel
    const boot = spawnSync(process.execPath, [`${repo}bin/fslab.mjs`, "vm", "--cold", "--", "true"], { encoding: "utf8", cwd: repo, env: { ...process.env, FSLAB_DIST: "/no/such/dist" } });
    expect(boot.status).toBe(1);
    expect(boot.stderr).toMatch(/^fslab vm: .*no such file/m);
  });

  it("--help of a command that does not exist is a usage error (exit 2)", () => {
    for (const [args, why] of [[["nope", "--help"], /^fslab nope: no command "nope"/], [["labs", "nope", "--help"], /^fslab labs: no labs command "nope"/], [["simulate", "nope", "--help"], /^fslab simulate: no model for "nope"/]] as const) {
      const r = fslab(...args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.err).toMatch(why);
    }
  });
});

describe("the compiled command line", { timeout: 120_000 }, () => {
  it("is rebuilt before it runs when a source is newer than the build", async () => {
    const { utimesSync, statSync } = await import("node:fs");
    const current = () => JSON.parse(readFileSync(`${repo}bin/dist/current.json`, "utf8")) as { dir: string; started: number };
    expect(fslab("--version").status).toBe(0);
    const before = current();
    expect(fslab("--version").status).toBe(0);
    expect(current().dir, "no source changed: the same build").toBe(before.dir);
    // a source the CLI imports, its content unchanged, now newer than the build
    const src = `${repo}bin/commands/help.ts`;
    const now = new Date();
    utimesSync(src, statSync(src).atime, now);
    const r = fslab("--help");
    expect(r.status).toBe(0);
    expect(r.err).toBe("");
    const after = current();
    expect(after.dir).not.toBe(before.dir);
    expect(after.started).toBeGreaterThanOrEqual(Math.floor(now.getTime()) - 1);
  });

  it("with no build and no esbuild to make one, says so in one line and exits 1", async () => {
    // the launcher alone, in a folder with no node_modules above it
    const { mkdtempSync, mkdirSync, copyFileSync } = await import("node:fs");
    const dir = mkdtempSync("/tmp/fslab-nobuild-");
    mkdirSync(`${dir}/bin`);
    for (const f of ["fslab.mjs", "build-cli.mjs"]) copyFileSync(`${repo}bin/${f}`, `${dir}/bin/${f}`);
    const r = spawnSync(process.execPath, [`${dir}/bin/fslab.mjs`, "--help"], { encoding: "utf8", cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toEqual(["fslab: the command line needs compiling (bin/dist/ holds no build yet), and esbuild (an npm dev dependency) is not installed to rebuild it: run `npm ci` (or `npm install`) in the fslab checkout"]);
  });
});

describe("fslab simulate vfat", { timeout: 60_000 }, () => {
  it("writes the blog series' three outcomes for ＳＪＩＳ, and the ~N tails a sequence of names gets", () => {
    const r = fslab("simulate", "vfat", "--json", "ＳＪＩＳ", "longname1.txt", "longname2.txt");
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.out).rows as Array<{ mount: string; name: string; short: string; cp437: string; cp932: string; long_name: string | null }>;
    expect(rows).toHaveLength(9);
    const at = (mount: string, name: string) => rows.find((x) => x.mount === mount && x.name === name)!;
    expect(at("utf8:932", "ＳＪＩＳ").cp932).toBe("ＳＪＩＳ");
    expect(at("utf8:437", "ＳＪＩＳ").cp437).toBe("____~1");
    expect(at("iso8859-1:932", "ＳＪＩＳ").long_name).toBe("ï¼³ï¼ªï¼©ï¼³");
    expect(at("utf8:437", "longname2.txt").cp437).toBe("LONGNA~2.TXT");
  });

  it("refuses a mount it does not model, and no names", () => {
    expect(fslab("simulate", "vfat", "--mount", "utf16:850", "a").err).toMatch(/--mount: "utf16:850" is not iocharset:codepage/);
    const r = fslab("simulate", "vfat");
    expect(r.status).not.toBe(0);
    expect(r.err).toMatch(/give one or more names/);
  });
});

describe("fslab simulate blk --trace --decisions", { timeout: 60_000 }, () => {
  it("judges each of the kernel's mq-deadline decisions by the model, with the trace's tunables", () => {
    const r = fslab("simulate", "blk", "--trace", DD_TRACE, "--decisions", "--json");
    expect(r.status).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ device: "254,1", dispatches: 358, lists_agree: 358, same_request: 358, same_reasons: 358, differences: [] });
    expect(j.tunables).toMatchObject({ read_expire_ms: 100, write_expire_ms: 400, fifo_batch: 16 });
  });

  it("an option overrides the trace's tunable, and then the model differs", () => {
    const r = fslab("simulate", "blk", "--trace", DD_TRACE, "--decisions", "--fifo-batch", "8");
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/fifo_batch 8/);
    expect(r.out).toMatch(/#8: kernel R\d+@\d+ \(batch\/sorted, batching 9/);
  });

  it("names the events a trace lacks, and counts the decisions they could change as not judged, not different", () => {
    // the three-class trace with its dd_dispatch_none lines taken out: one decision the model
    // then makes otherwise, with counters the unseen call moved
    const dir = mkdtempSync(`${tmpdir()}/fslab-dd-`);
    const file = `${dir}/prio-without-none.trace`;
    const text = gunzipSync(readFileSync(`${repo}web/src/topics/blk/traces/blk-nullb-dd-prio.trace.gz`)).toString("utf8");
    writeFileSync(file, text.split("\n").filter((l) => !l.includes(" dd_dispatch_none: ")).join("\n"));
    try {
      const j = JSON.parse(fslab("simulate", "blk", "--trace", file, "--decisions", "--json").out);
      expect(j.lacked_events).toEqual(["dd_dispatch_none", "block_rq_merge", "block_rq_requeue"]);
      expect(j.could_change.dd_dispatch_none).toBeGreaterThan(0);
      expect(j.not_judged_for_lacked_events).toBe(j.could_change.dd_dispatch_none);
      expect(j.judged).toBe(j.dispatches - j.not_judged_for_lacked_events);
      expect(j).toMatchObject({ same_reasons: j.judged, differences: [] });
      const r = fslab("simulate", "blk", "--trace", file, "--decisions");
      expect(r.status).toBe(0);
      expect(r.out).toMatch(/the trace has no dd_dispatch_none, block_rq_merge, block_rq_requeue events/);
      expect(r.out).toMatch(new RegExp(`so ${j.not_judged_for_lacked_events} of those decisions are not judged: trace dd_dispatch_none too`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says what is missing from a trace without the tracepoint", () => {
    const r = fslab("simulate", "blk", "--trace", "web/src/topics/blk/traces/blk-nullb-mq-deadline.trace.gz", "--decisions");
    expect(r.status).not.toBe(0);
    expect(r.err).toMatch(/no mq_deadline:dd_dispatch_request events/);
    expect(fslab("simulate", "blk", "--decisions").err).toMatch(/--decisions: needs --trace FILE/);
  });
});

describe("bad arguments", { timeout: 60_000 }, () => {
  // each: the arguments, and what the one line on stderr must say; then the usage follows, exit 2
  it.each([
    [[], /^fslab: no command given/, /^usage:/],
    [["nope"], /^fslab nope: no command "nope"/, /^usage:/],
    [["labs", "nope"], /^fslab labs: no labs command "nope"/, /^usage:/],
    [["simulate", "nope"], /no model for "nope" \(blk, exfat/, /^usage: fslab simulate blk/],
    [["simulate", "exfat", "--runs", "abc"], /--runs: "abc" is not a whole number/, /^usage: fslab simulate exfat /],
    [["simulate", "exfat", "--no-such-option"], /Unknown option '--no-such-option'/, /^usage: fslab simulate exfat /],
    [["simulate", "exfat", "stray"], /Unexpected argument 'stray'/, /^usage: fslab simulate exfat /],
    [["simulate", "blk", "--sched", "cfq"], /--sched: "cfq" is not all, both, or a list/, /^usage: fslab simulate blk /],
    [["simulate", "ext4", "--size", "5q"], /--size: "5q" is not a size/, /^usage: fslab simulate ext4 /],
    [["simulate", "vfat"], /give one or more names/, /^usage: fslab simulate vfat /],
    [["labs", "grade", "mq-deadline"], /labs grade takes a lab .* and the learner's C file/, /^usage:/],
    [["labs", "grade", "mq-deadline", "/no/such.c"], /labs grade: cannot read \/no\/such\.c/, /^usage:/],
    [["labs", "grade", "write-path", "package.json"], /labs grade: write-path has no code step/, /^usage:/],
    [["labs", "grade", "mq-deadline", "package.json", "--step", "2"], /--step is the number of a code step of mq-deadline \(5\), not "2"/, /^usage:/],
    [["inspect"], /^fslab inspect: no image given/, /^usage: fslab inspect /],
    [["inspect", "a.img", "b.img"], /one image at a time/, /^usage: fslab inspect /],
    [["inspect", "--verbose", "a.img"], /unknown option --verbose/, /^usage: fslab inspect /],
    [["vm", "--fast", "--", "true"], /^fslab vm: unknown option --fast/, /^usage: fslab vm /],
    [["vm"], /^fslab vm: no command/, /^usage: fslab vm /],
    [["bench", "disk"], /^fslab bench: no benchmark "disk"/, /^usage: fslab bench /],
    // refused before the guest boots (it once booted, ran nothing and exited 0)
    [["bench-vm", "exfat-discrad"], /^fslab bench-vm: no scenario "exfat-discrad" \(.*\bexfat-discard\b.*\)$/, /^usage:/],
    [["bench-vm", "--all"], /^fslab bench-vm: unknown option "--all"/, /^usage:/],
    [["labs", "check", "labs", "more"], /^fslab labs: labs check takes one path \(a labs folder, a lab folder or a lab\.md\), not 2/, /^usage:/],
    [["labs", "check", "--strict"], /^fslab labs: labs check: unknown option --strict/, /^usage:/],
  ])("fslab %j: exit 2, what was wrong, then the usage", (args, first, second) => {
    const r = fslab(...(args as string[]));
    expect(r.status).toBe(2);
    const lines = r.err.split("\n");
    expect(lines[0]).toMatch(first);
    expect(lines[1]).toMatch(second);
  });

  it("a progress file or folder that is not there: exit 1 and one line", () => {
    const r = fslab("labs", "report", "/no/such/progress.json");
    expect(r.status).toBe(1);
    expect(r.err.trim().split("\n")).toEqual(["fslab labs report: no file or folder /no/such/progress.json"]);
  });

  it("an image that is not there, or a directory: exit 1 and one line", () => {
    for (const [path, why] of [["/no/such/image.img", /cannot read \/no\/such\/image.img: no such file$/], ["/tmp", /\/tmp is a directory, not an image$/]] as const) {
      const r = fslab("inspect", path);
      expect(r.status).toBe(1);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err.trim()).toMatch(why);
    }
  });

  it("fslab simulate alone prints every command's options, as asked", () => {
    const r = fslab("simulate");
    expect(r.status).toBe(0);
    for (const name of ["blk", "exfat", "exfat-dir", "ext4", "f2fs", "f2fs-nid", "vfat"]) expect(r.out).toMatch(new RegExp(`fslab simulate ${name} `));
  });
});

/** A test image the real mkfs tools made, unpacked to a fresh folder as clean.img, to damage a copy of. */
async function imageCopy(name: string) {
  const { gunzipSync } = await import("node:zlib");
  const { readFileSync, writeFileSync, mkdtempSync } = await import("node:fs");
  const bytes = gunzipSync(readFileSync(`${repo}wasm/tests/images/${name}.img.gz`));
  const dir = mkdtempSync("/tmp/fslab-cli-");
  writeFileSync(`${dir}/clean.img`, bytes);
  return { bytes, dir, writeFileSync };
}

describe("fslab inspect on a damaged image", { timeout: 60_000 }, () => {
  it("prints what it can read, names the damage in one line on stderr, and exits 4 (as fsck does)", async () => {
    const { bytes, dir, writeFileSync } = await imageCopy("exfat-4k");
    const ok = fslab("inspect", `${dir}/clean.img`);
    expect(ok.status).toBe(0);
    // the root directory's cluster (5) made to lead back to itself
    const fat = JSON.parse(fslab("inspect", "--json", `${dir}/clean.img`).out).boot;
    new DataView(bytes.buffer, bytes.byteOffset).setUint32((fat.fat_offset << fat.bytes_per_sector_shift) + 4 * 5, 5, true);
    writeFileSync(`${dir}/loop.img`, bytes);
    const r = fslab("inspect", `${dir}/loop.img`);
    expect(r.status).toBe(4);
    expect(r.out).toMatch(/root directory: clusters 5 {2}!! the chain loops: cluster 5 leads back to cluster 5, after 1 cluster$/m);
    expect(r.out).toMatch(/\/fragmented\.bin/); // the rest was read
    expect(r.err.trim().split("\n")).toEqual([`fslab inspect: ${dir}/loop.img is damaged: root directory: the chain loops: cluster 5 leads back to cluster 5, after 1 cluster`]);
  });

  it("on ext4: an extent tree deeper than ext4 allows", async () => {
    const { bytes, dir, writeFileSync } = await imageCopy("ext4-4k");
    const clean = fslab("inspect", `${dir}/clean.img`);
    expect(clean.status).toBe(0);
    expect(clean.out).toMatch(/^ {2}inodes: \d+ in use, \d+ with extent trees \(deepest 0\), \d+ extents$/m);
    const r0 = JSON.parse(fslab("inspect", "--json", `${dir}/clean.img`).out);
    new DataView(bytes.buffer, bytes.byteOffset).setUint16(r0.groups[0].inode_table * r0.block_size + 11 * r0.superblock.inode_size + 0x28 + 6, 7, true);
    writeFileSync(`${dir}/deep.img`, bytes);
    const r = fslab("inspect", `${dir}/deep.img`);
    expect(r.status).toBe(4);
    expect(r.out).toMatch(/^ {2}!! inode 12: extent tree depth 7 is deeper than ext4 allows \(5\)$/m);
    expect(r.err.trim()).toBe(`fslab inspect: ${dir}/deep.img is damaged: inode 12: extent tree depth 7 is deeper than ext4 allows (5)`);
  });

  it("on a FAT volume too: a directory whose cluster leads back to itself", async () => {
    const { bytes, dir, writeFileSync } = await imageCopy("vfat-names");
    expect(fslab("inspect", `${dir}/clean.img`).status).toBe(0);
    const r0 = JSON.parse(fslab("inspect", "--json", `${dir}/clean.img`).out);
    expect(r0.fat_type).toBe("FAT16");
    const c = r0.files.find((f: { path: string }) => f.path === "/u437").first_cluster;
    new DataView(bytes.buffer, bytes.byteOffset).setUint16(r0.bpb.reserved_sectors * r0.bpb.bytes_per_sector + 2 * c, c, true);
    writeFileSync(`${dir}/loop.img`, bytes);
    const r = fslab("inspect", `${dir}/loop.img`);
    expect(r.status).toBe(4);
    const msg = `the chain loops: cluster ${c} leads back to cluster ${c}, after 1 cluster`;
    expect(r.out).toMatch(new RegExp(`^  /u437/ .* ${c} {2}!! ${msg}$`, "m"));
    expect(r.out).toMatch(/\/l932\/cafÃ©\.txt/); // the rest was read
    expect(r.err.trim().split("\n")).toEqual([`fslab inspect: ${dir}/loop.img is damaged: /u437: ${msg}`]);
  });
});
