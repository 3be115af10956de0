// unxzState against files the real xz made (the options save-state.ts uses, on a small input),
// and against damaged ones: a clear error or the exact bytes, never anything else.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { unxzState } from "./saved-state";

// something like a state: a header, runs of zeros, text, and bytes that do not repeat
const plain = new Uint8Array(300_000);
plain.set(new TextEncoder().encode(JSON.stringify({ state: "fslab", buffers: [1, 2, 3] })), 16);
for (let i = 40_000; i < 140_000; i++) plain[i] = (i * 2654435761) >>> 24;
plain.set(readFileSync(new URL("./saved-state.ts", import.meta.url)).subarray(0, 20_000), 200_000);
const packed = new Uint8Array(execFileSync("xz", ["--lzma2=preset=9e,dict=1MiB", "-T1", "-c"], { input: plain }));

const stream = (b: Uint8Array, chunk = 4096) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < b.length; i += chunk) c.enqueue(b.slice(i, i + chunk));
      c.close();
    },
  });

describe("unxzState", () => {
  it("gives back the bytes xz packed, whatever the pieces they arrive in", async () => {
    for (const chunk of [1 << 20, 4096, 7]) expect(new Uint8Array(await unxzState(stream(packed, chunk), plain.length))).toEqual(plain);
  });

  it("says what is wrong with a file that is no state", async () => {
    await expect(unxzState(stream(new TextEncoder().encode("<html>404 Not Found</html>")), plain.length)).rejects.toThrow(/could not be unpacked: not an xz file/);
    await expect(unxzState(stream(packed.subarray(0, packed.length >> 1)), plain.length)).rejects.toThrow(/could not be unpacked/);
    // a file of another build: the size state.json gives is not this state's
    await expect(unxzState(stream(packed), plain.length - 1)).rejects.toThrow(/more than the 299999 bytes/);
    await expect(unxzState(stream(packed), plain.length + 1)).rejects.toThrow(/300000 of its 300001 bytes came/);
  });

  it("refuses a file damaged in its last bytes (the index, the footer) at once, and unpacks the next", async () => {
    // one of these decodes to more bytes than the state has: unxzState left its decoder
    // unfinished, and xz-decompress, one decoder at a time, made every later unpacking wait
    for (let back = 1; back <= 64; back++) {
      const bad = packed.slice();
      bad[packed.length - back] ^= 1;
      const got = await unxzState(stream(bad), plain.length).then(
        (b) => new Uint8Array(b),
        (e: Error) => e,
      );
      if (got instanceof Error) expect(got.message, `byte ${packed.length - back}`).toMatch(/^the saved machine could not be unpacked: /);
      else expect(got).toEqual(plain);
    }
    expect(new Uint8Array(await unxzState(stream(packed), plain.length))).toEqual(plain);
  });

  it("refuses a damaged file with a clear error, or (a byte xz does not read) gives the exact bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: packed.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, flip) => {
        const bad = packed.slice();
        bad[at] ^= flip;
        const got = await unxzState(stream(bad), plain.length).then(
          (b) => new Uint8Array(b),
          (e: Error) => e,
        );
        if (got instanceof Error) expect(got.message).toMatch(/^the saved machine could not be unpacked: /);
        else expect(got).toEqual(plain);
      }),
      { numRuns: 60 },
    );
  });
});
