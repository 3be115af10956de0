#!/usr/bin/env node
// `npm test`: every test, in two lanes, with each phase's time printed at the end.
//
// The guest lane runs the guest in Node (v86 on Node's main thread: one core): `fslab labs
// test` walks the shipped labs, then the e2e files that open no page, then the C tests and
// fuzzing. The main lane runs the typecheck and the unit tests, builds the site once and runs
// the e2e files that drive Chromium. Both lanes start once the install is done.
//
//   node bin/test.mjs            both lanes at once (what `npm test` runs)
//   node bin/test.mjs --serial   one phase after another, in the order printed
//
// Exit 0 when every phase passed, 1 when one failed (the other phases still run, so one run
// reports every failure), 2 on a usage error.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** One command per phase; the npm scripts of the same name run the same command alone. */
const INSTALL = { name: "install", cmd: "bash bin/ensure-deps.sh test" };
/** The guest in Node: the labs' walk, the e2e files that need no page, then the C tests. */
const GUEST_LANE = [
  { name: "labs test", cmd: "node bin/fslab.mjs labs test" },
  { name: "e2e (node)", cmd: "npx vitest run --config e2e/vitest.config.ts --project node" },
  { name: "C tests + fuzz", cmd: "make -s -C wasm test fuzz FUZZ_SECONDS=20" },
];
/** Chromium: the site built once, then every e2e file that opens it. */
const MAIN_LANE = [
  { name: "typecheck", cmd: "npx tsc -p web/tsconfig.json" },
  { name: "unit", cmd: "npx vitest run --config vitest.config.ts" },
  { name: "site build", cmd: "npx vite build --config web/vite.config.ts --logLevel error" },
  { name: "e2e (chromium)", cmd: "npx vitest run --config e2e/vitest.config.ts --project chromium" },
];

const USAGE = `usage: node bin/test.mjs [--serial]

Runs every test of fslab (what \`npm test\` runs) and prints each phase's time at the end.
  --serial   one phase at a time instead of two lanes at once
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

/** @type {{ name: string; seconds: number; status: number | string }[]} */
const done = [];

/**
 * Runs one phase. A phase beside another has its lines prefixed with its name, so the two
 * streams stay readable when they interleave.
 */
function run(phase, prefix) {
  const t0 = performance.now();
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
      done.push({ name: phase.name, seconds: (performance.now() - t0) / 1000, status });
      if (status !== 0) console.error(`\ntest: phase "${phase.name}" failed (${typeof status === "number" ? `exit ${status}` : status})\n`);
      resolve(status === 0);
    });
  });
}

async function lane(phases, prefix) {
  let ok = true;
  for (const p of phases) ok = (await run(p, prefix)) && ok;
  return ok;
}

const t0 = performance.now();
let ok = await run(INSTALL);
if (!ok) {
  console.error("test: the install failed; nothing else can run");
} else if (serial) {
  ok = (await lane(MAIN_LANE.slice(0, 2))) && ok;
  ok = (await lane(GUEST_LANE)) && ok;
  ok = (await lane(MAIN_LANE.slice(2))) && ok;
} else {
  const results = await Promise.all([lane(GUEST_LANE, "guest"), lane(MAIN_LANE)]);
  ok = results.every(Boolean);
}

const wall = (performance.now() - t0) / 1000;
// whole seconds first: 179.6 s is 3m00s, not 2m60s
const mmss = (s) => ((t) => `${Math.floor(t / 60)}m${String(t % 60).padStart(2, "0")}s`)(Math.round(s));
console.log(`\nnpm test: each phase's time${serial ? "" : " (two lanes at once: labs, e2e (node) and C beside the rest)"}`);
for (const d of done) console.log(`  ${d.name.padEnd(16)} ${mmss(d.seconds).padStart(7)}  ${d.status === 0 ? "passed" : "FAILED"}`);
console.log(`  ${"whole run".padEnd(16)} ${mmss(wall).padStart(7)}  ${ok ? "passed" : "FAILED"}`);
process.exit(ok ? 0 : 1);
