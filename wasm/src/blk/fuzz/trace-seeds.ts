// Seeds for wasm/src/blk/fuzz/fuzz_trace.c from the block traces recorded in the guest
// (web/src/topics/blk/traces/): each trace read by the page's own parser and marshalled by the
// same functions that hand it to the wasm core, then written in the harness's input layout.
// Run once when the traces or the layout change (the seeds then go into wasm/src/blk/fuzz/trace.tar.gz
// with `make fuzz-grow`):
//   node --import tsx wasm/src/blk/fuzz/trace-seeds.ts DIR
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { DD_DEFAULTS, DEVICES, KYBER_DEFAULTS, SCHED_CODE, deviceWords, tunableWords, type Scheduler } from "../../../../web/src/topics/blk/blk-core";
import { onDevice, parseBlkTrace, type BlkTrace } from "../../../../web/src/topics/blk/blk-trace";
import { ddReplayWords } from "../../../../web/src/topics/blk/dd-kernel";
import { splitRuns } from "../../../../web/src/topics/blk/dd-runs";
import { GUEST_HZ, blkTraceWords } from "../../../../web/src/topics/blk/trace-replay";

const out = process.argv[2];
if (!out) throw new Error("usage: trace-seeds.ts DIR");
mkdirSync(out, { recursive: true });

class Bytes {
  private parts: Buffer[] = [];
  u8(v: number) {
    this.parts.push(Buffer.from([v]));
  }
  u32(...vs: number[]) {
    for (const v of vs) {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(v >>> 0);
      this.parts.push(b);
    }
  }
  f64(v: number) {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v);
    this.parts.push(b);
  }
  get bytes() {
    return Buffer.concat(this.parts);
  }
}

let written = 0;
function seed(name: string, b: Bytes) {
  writeFileSync(join(out, name), b.bytes);
  written++;
}

// mode 0: dd_replay, one seed per run of the trace
function replaySeed(name: string, trace: BlkTrace) {
  let w;
  try {
    w = ddReplayWords(trace);
  } catch {
    return; // no mq-deadline decisions in it
  }
  const b = new Bytes();
  b.u8(0);
  b.u32(...w.tun, GUEST_HZ);
  b.u8(1);
  b.u32(...w.start, w.rq.length / 4, ...w.rq, ...w.ev);
  seed(name, b);
}

// modes 1-4: the trace as an open-loop job, on the kernel's measured device and on a model's
function simSeed(name: string, trace: BlkTrace, sched: Scheduler, device: "kernel" | "sdcard") {
  const w = blkTraceWords(trace, device === "kernel" ? "kernel" : DEVICES[device]);
  const b = new Bytes();
  b.u8(1 + SCHED_CODE[sched]);
  b.u32(...tunableWords(DD_DEFAULTS, KYBER_DEFAULTS), ...deviceWords(w.device), GUEST_HZ, 1);
  for (let i = 0; i < w.op.length; i++) {
    b.f64(w.arrivalNs[i]);
    b.f64(w.sector[i]);
    b.f64(w.serviceNs[i]);
    b.u32(w.sectors[i], w.op[i], w.ioprioClass[i], w.plugged[i]);
  }
  seed(name, b);
}

const dir = new URL("../../../../web/src/topics/blk/traces/", import.meta.url);
for (const f of readdirSync(dir).filter((f) => f.endsWith(".trace.gz"))) {
  const text = gunzipSync(readFileSync(new URL(f, dir))).toString("utf8");
  const base = f.replace(/\.trace\.gz$/, "");
  splitRuns(text.split("\n")).forEach((lines, r) => {
    const whole = parseBlkTrace(lines.join("\n"));
    for (const dev of whole.devices) {
      const trace = onDevice(whole, dev);
      const name = `${base}-run${r}-${dev.replace(/\W/g, "_")}`;
      replaySeed(`${name}-dd`, trace);
      for (const sched of Object.keys(SCHED_CODE) as Scheduler[]) {
        simSeed(`${name}-${sched}-kernel`, trace, sched, "kernel");
        simSeed(`${name}-${sched}-sdcard`, trace, sched, "sdcard");
      }
    }
  });
}
console.log(`${written} seeds in ${out}`);
