// The TypeScript parsers of what learners and instructors hand the page (lab files, tracefs
// text, the live channel's bytes), fed arbitrary and mutated input with fast-check: each
// either reads it or refuses it with its own error naming the line; none throws anything
// else or hangs.
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { LabFormatError, parseLab } from "./labs/lab-format";
import { BlkTraceError, parseBlkTrace } from "./topics/blk/blk-trace";
import { parseFunctionGraph } from "./topics/write-path/ftrace-graph";
import { TraceChannel } from "./vm/machine/trace-channel";
import { VIEW_IDS } from "./topics";

const labSource = readFileSync(new URL("../../labs/exfat-discard/lab.md", import.meta.url), "utf8");
const blkTrace = gunzipSync(readFileSync(new URL("./topics/blk/traces/blk-nullb-dd.trace.gz", import.meta.url))).toString("utf8");
const graphTrace = gunzipSync(readFileSync(new URL("./topics/write-path/traces/write-path-buffered.trace.gz", import.meta.url))).toString("utf8");

/** a real file with lines dropped, duplicated, cut or replaced: input that looks nearly right */
const mutated = (text: string) => {
  const lines = text.split("\n").slice(0, 400);
  return fc
    .array(fc.tuple(fc.nat({ max: lines.length }), fc.oneof(fc.constant("drop"), fc.constant("dup"), fc.constant("cut"), fc.string({ maxLength: 40 }))), { maxLength: 8 })
    .map((edits) => {
      const out = [...lines];
      for (const [at, op] of edits) {
        const i = Math.min(at, out.length - 1);
        if (i < 0) continue;
        if (op === "drop") out.splice(i, 1);
        else if (op === "dup") out.splice(i, 0, out[i]);
        else if (op === "cut") out[i] = out[i].slice(0, Math.floor(out[i].length / 2));
        else out[i] = op;
      }
      return out.join("\n");
    });
};

const refusesOnly = (f: () => unknown, ...allowed: Array<new (...a: never[]) => Error>) => {
  try {
    f();
  } catch (e) {
    if (!allowed.some((A) => e instanceof A)) throw e;
    expect((e as Error).message.length).toBeGreaterThan(0);
  }
};

describe("parsers against arbitrary and mutated input", () => {
  it("parseLab reads or refuses with a LabFormatError naming file:line", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), mutated(labSource)), (text) => {
        try {
          parseLab(text, VIEW_IDS, "lab.md");
        } catch (e) {
          expect(e).toBeInstanceOf(LabFormatError);
          expect((e as Error).message).toMatch(/^lab\.md:\d+: /);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("parseBlkTrace reads or refuses with a BlkTraceError naming the line", () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 300 }), mutated(blkTrace)), (text) => refusesOnly(() => parseBlkTrace(text), BlkTraceError)), { numRuns: 200 });
  });

  it("parseFunctionGraph reads what has calls in it, and refuses the rest only by saying it is not function_graph output", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), mutated(graphTrace)), (text) => {
        try {
          parseFunctionGraph(text);
        } catch (e) {
          expect((e as Error).constructor).toBe(Error); // not a TypeError or RangeError from inside
          expect((e as Error).message).toMatch(/^not function_graph output/);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("the live channel takes any bytes, in any chunks, and counts what it could not read", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 20 }), (chunks) => {
        const ch = new TraceChannel();
        for (const c of chunks) ch.feed(c);
        const words = ch.take();
        expect(words.length % 4).toBe(0);
        expect(ch.stats.lost).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
});
