#!/usr/bin/env node
// `npm test`: every test, in three lanes, with each phase's time printed at the end.
//
// A guest runs on one core (v86 on its thread), and many e2e files spend much of their time
// waiting on the guest's own clock (a check's poll, fio's seconds, an SD card's programming),
// so three lanes keep two cores busy:
//   guest  the e2e files that open no page (the guest and the CLI in Node), then the C tests
//          and fuzzing, then the typecheck (this lane ends first without it);
//   walk   once the site is built, walk.e2e walks every shipped lab in the page, and holds
//          its checks to what `fslab labs test` asks (so the labs are not walked a second time
//          in Node here; `npm run test:labs` does that walk alone);
//   main   the site built once, the unit tests, then the other e2e files that open the page.
//
//   node bin/test.mjs            all three lanes at once (what `npm test` runs)
//   node bin/test.mjs --serial   one phase after another, in the order printed, each with the
//                                machine's busy CPU time while it ran
//
// Exit 0 when every phase passed, 1 when one failed (the other phases still run, so one run
// reports every failure), 2 on a usage error.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
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
const E2E_CHROMIUM = { name: "e2e (chromium)", cmd: `${E2E} --project chromium --exclude e2e/walk.e2e.ts` };
/** The guest in Node: the e2e files without a page, the C tests, then the typecheck. */
const GUEST_LANE = [E2E_NODE, C_TESTS, TYPECHECK];
/** After the site build: every shipped lab walked in the page. */
const WALK_LANE = [E2E_WALK];
/** After the site build (its own step: the walk lane waits for it): the unit tests, every other page file. */
const MAIN_LANE = [UNIT, E2E_CHROMIUM];

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
    const child = spawn("bash", ["-c", phase.cmd], { cwd: REPO, stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit" });
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

/** Runs phases one after another; `gate` is awaited before the first. */
async function lane(phases, prefix, gate = Promise.resolve(true)) {
  if (!(await gate)) {
    console.error(`test: ${phases.map((p) => `"${p.name}"`).join(" and ")} not run: the site build failed`);
    return false;
  }
  let ok = true;
  for (const p of phases) ok = (await run(p, prefix)) && ok;
  return ok;
}

const t0 = performance.now();
const c0 = busySeconds();
let ok = await run(INSTALL);
if (!ok) {
  console.error("test: the install failed; nothing else can run");
} else if (serial) {
  for (const p of [TYPECHECK, UNIT, E2E_NODE, C_TESTS, BUILD, E2E_CHROMIUM, E2E_WALK]) ok = (await run(p)) && ok;
} else {
  let built;
  const siteBuilt = new Promise((resolve) => (built = resolve));
  const main = (async () => {
    const b = await run(BUILD);
    built(b);
    return (await lane(MAIN_LANE)) && b;
  })();
  const results = await Promise.all([lane(GUEST_LANE, "guest"), lane(WALK_LANE, "walk", siteBuilt), main]);
  ok = results.every(Boolean);
}

const wall = (performance.now() - t0) / 1000;
// whole seconds first: 179.6 s is 3m00s, not 2m60s
const mmss = (s) => ((t) => `${Math.floor(t / 60)}m${String(t % 60).padStart(2, "0")}s`)(Math.round(s));
// the machine's busy time: per phase only when phases run one at a time (beside each other, a
// phase's figure would hold the other lane's work too)
const c1 = busySeconds();
const cpuText = (s) => (s === null ? "" : `  ${Math.round(s)} core-s busy`);
console.log(`\nnpm test: each phase's time${serial ? ", and the machine's busy CPU time meanwhile" : " (three lanes at once, see bin/test.mjs)"}`);
for (const d of done) console.log(`  ${d.name.padEnd(16)} ${mmss(d.seconds).padStart(7)}  ${d.status === 0 ? "passed" : "FAILED"}${serial || d.name === INSTALL.name ? cpuText(d.cpu) : ""}`);
const whole = c0 === null || c1 === null ? "" : `${cpuText(c1 - c0)} (${((c1 - c0) / wall).toFixed(2)} cores on average)`;
console.log(`  ${"whole run".padEnd(16)} ${mmss(wall).padStart(7)}  ${ok ? "passed" : "FAILED"}${whole}`);
process.exit(ok ? 0 : 1);
