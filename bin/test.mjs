#!/usr/bin/env node
// `npm test`: every test, in three lanes, with each phase's time printed at the end.
//
// A guest runs on one core (v86 on its thread), and many e2e files spend much of their time
// waiting on the guest's own clock (a check's poll, fio's seconds, an SD card's programming),
// so three lanes keep two cores busy:
//   guest  the e2e files that open no page (the guest and the CLI in Node), then the C tests
//          and fuzzing, then (once the site is built) the page files that mostly wait on the
//          page's clock (trouble.e2e.ts: a command quiet for a minute), then the typecheck;
//   walk   the unit tests, then, once the site is built, walk.e2e walks the shipped labs in
//          the page, and holds their checks to what `fslab labs test` asks (so the labs are
//          not walked a second time in Node here; `npm run test:labs` does that walk alone);
//   main   the site built once, then the other e2e files that open the page (many of them
//          wait on the page's clock: a command quiet for a minute, a step's checks at rest).
// The walk is the longest lane, so the other two walk the labs it has not reached once their
// own work is done: each walk process claims a lab before walking it (walk.e2e.ts), the
// longest first, and every lab is walked once, by whichever lane got to it.
//
//   node bin/test.mjs            all three lanes at once (what `npm test` runs)
//   node bin/test.mjs --serial   one phase after another, in the order printed, each with the
//                                machine's busy CPU time while it ran
//
// Exit 0 when every phase passed, 1 when one failed (the other phases still run, so one run
// reports every failure), 2 on a usage error.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** One command per phase; the npm scripts of the same name run the same command alone. */
const INSTALL = { name: "install", cmd: "bash bin/ensure-deps.sh test" };
const E2E = "npx vitest run --config e2e/vitest.config.ts";
const BUILD = { name: "site build", cmd: "npx vite build --config web/vite.config.ts --logLevel error" };
const TYPECHECK = { name: "typecheck", cmd: "npx tsc -p web/tsconfig.json" };
const UNIT = { name: "unit", cmd: "npx vitest run --config vitest.config.ts" };
const E2E_NODE = { name: "e2e (node)", cmd: `${E2E} --project node` };
const C_TESTS = { name: "C tests + fuzz", cmd: "make -s -C wasm test fuzz FUZZ_SECONDS=20" };
const E2E_WALK = { name: "e2e (walk)", cmd: `${E2E} --project chromium e2e/walk.e2e.ts` };
/** page files that mostly wait (a minute of a quiet command): they run in the guest lane, beside the main lane's */
const WAITING = ["e2e/trouble.e2e.ts"];
const E2E_CHROMIUM = { name: "e2e (chromium)", cmd: `${E2E} --project chromium --exclude e2e/walk.e2e.ts ${WAITING.map((f) => `--exclude ${f}`).join(" ")}` };
/**
 * The walks' environment: FSLAB_WALK_CLAIMS, the folder where the lanes claim the labs
 * (walk.e2e.ts), made once the lanes start; unset (--serial), one walk takes them all.
 */
const walkEnv = {};
let built;
/** The site built: the walks wait for it. */
const siteBuilt = new Promise((resolve) => (built = resolve));
const walk = (name) => ({ ...E2E_WALK, name, env: walkEnv, gate: siteBuilt });
const E2E_WAITING = { name: "e2e (chromium, waiting)", cmd: `${E2E} --project chromium ${WAITING.join(" ")}`, gate: siteBuilt };
/** The guest in Node: the e2e files without a page, the C tests, the page files that wait, the typecheck, then the labs the walk has not reached. */
const GUEST_LANE = [E2E_NODE, C_TESTS, E2E_WAITING, TYPECHECK, walk("walk (guest lane)")];
/** The unit tests, then (after the site build) the shipped labs walked in the page. */
const WALK_LANE = [UNIT, walk(E2E_WALK.name)];
/** After the site build (its own step: the walk waits for it): every other page file, the labs left. */
const MAIN_LANE = [E2E_CHROMIUM, walk("walk (main lane)")];

const USAGE = `usage: node bin/test.mjs [--serial]

Runs every test of fslab (what \`npm test\` runs) and prints each phase's time at the end.
  --serial   one phase at a time instead of three lanes at once
  -h, --help this text`;

const args = process.argv.slice(2);
if (args.includes("-h") || args.includes("--help")) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = args.filter((a) => a !== "--serial");
if (unknown.length) {
  console.error(`test: unknown argument ${unknown[0]}\n${USAGE}`);
  process.exit(2);
}
const serial = args.includes("--serial");
if (!serial) walkEnv.FSLAB_WALK_CLAIMS = mkdtempSync(join(tmpdir(), "fslab-walk-"));

/** @type {{ name: string; seconds: number; cpu: number | null; status: number | string }[]} */
const done = [];

/**
 * The machine's busy CPU seconds so far, all cores together (Linux's /proc/stat: user, nice,
 * system, irq, softirq, steal), or null elsewhere. Machine-wide: a process's own time misses
 * Chromium's, whose processes are not reaped by the phase's shell.
 */
function busySeconds() {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = cpu;
    return (user + nice + system + irq + softirq + (steal ?? 0)) / 100; // USER_HZ
  } catch {
    return null;
  }
}

/**
 * Runs one phase. A phase beside another has its lines prefixed with its name, so the two
 * streams stay readable when they interleave.
 */
function run(phase, prefix) {
  const t0 = performance.now();
  const c0 = busySeconds();
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", phase.cmd], { cwd: REPO, env: { ...process.env, ...phase.env }, stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit" });
    if (prefix) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = "";
        from.setEncoding("utf8");
        from.on("data", (chunk) => {
          const lines = (rest + chunk).split("\n");
          rest = lines.pop();
          for (const l of lines) to.write(`[${prefix}] ${l}\n`);
        });
        from.on("end", () => rest && to.write(`[${prefix}] ${rest}\n`));
      }
    }
    child.on("close", (code, signal) => {
      const status = signal ? `killed by ${signal}` : code;
      const c1 = busySeconds();
      done.push({ name: phase.name, seconds: (performance.now() - t0) / 1000, cpu: c0 === null || c1 === null ? null : c1 - c0, status });
      if (status !== 0) console.error(`\ntest: phase "${phase.name}" failed (${typeof status === "number" ? `exit ${status}` : status})\n`);
      resolve(status === 0);
    });
  });
}

/** Runs phases one after another; a phase's `gate` (the site build) is awaited before it. */
async function lane(phases, prefix) {
  let ok = true;
  for (const p of phases) {
    if (p.gate && !(await p.gate)) {
      console.error(`test: "${p.name}" not run: the site build failed`);
      ok = false;
      continue;
    }
    ok = (await run(p, prefix)) && ok;
  }
  return ok;
}

const t0 = performance.now();
const c0 = busySeconds();
let ok = await run(INSTALL);
if (!ok) {
  console.error("test: the install failed; nothing else can run");
} else if (serial) {
  for (const p of [TYPECHECK, UNIT, E2E_NODE, C_TESTS, BUILD, E2E_CHROMIUM, E2E_WAITING, E2E_WALK]) ok = (await run(p)) && ok;
} else {
  const main = (async () => {
    const b = await run(BUILD);
    built(b);
    return (await lane(MAIN_LANE)) && b;
  })();
  const results = await Promise.all([lane(GUEST_LANE, "guest"), lane(WALK_LANE, "walk"), main]);
  ok = results.every(Boolean);
  // every lab walked by one lane or another: a walk process that ended early leaves its labs unclaimed
  const labs = readdirSync(join(REPO, "labs"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  const walked = new Set(readdirSync(walkEnv.FSLAB_WALK_CLAIMS));
  const missed = labs.filter((l) => !walked.has(l));
  if (ok && missed.length) {
    console.error(`test: no lane walked ${missed.join(", ")}`);
    ok = false;
  }
}

const wall = (performance.now() - t0) / 1000;
// whole seconds first: 179.6 s is 3m00s, not 2m60s
const mmss = (s) => ((t) => `${Math.floor(t / 60)}m${String(t % 60).padStart(2, "0")}s`)(Math.round(s));
// the machine's busy time: per phase only when phases run one at a time (beside each other, a
// phase's figure would hold the other lane's work too)
const c1 = busySeconds();
const cpuText = (s) => (s === null ? "" : `  ${Math.round(s)} core-s busy`);
console.log(`\nnpm test: each phase's time${serial ? ", and the machine's busy CPU time meanwhile" : " (three lanes at once, see bin/test.mjs)"}`);
for (const d of done) console.log(`  ${d.name.padEnd(24)} ${mmss(d.seconds).padStart(7)}  ${d.status === 0 ? "passed" : "FAILED"}${serial || d.name === INSTALL.name ? cpuText(d.cpu) : ""}`);
const whole = c0 === null || c1 === null ? "" : `${cpuText(c1 - c0)} (${((c1 - c0) / wall).toFixed(2)} cores on average)`;
console.log(`  ${"whole run".padEnd(24)} ${mmss(wall).padStart(7)}  ${ok ? "passed" : "FAILED"}${whole}`);
if (walkEnv.FSLAB_WALK_CLAIMS) rmSync(walkEnv.FSLAB_WALK_CLAIMS, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
