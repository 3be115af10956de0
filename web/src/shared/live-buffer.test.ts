import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LiveBuffer } from "./live-buffer";

const rec = (i: number) => [0x0104, i, 1, 0];

describe("LiveBuffer", () => {
  it("keeps every record and line in order while under its caps, growing by doubling", () => {
    const b = new LiveBuffer(1000, 50);
    for (let i = 0; i < 300; i++) b.append(Uint32Array.from(rec(i)), [`line ${i % 40}`].slice(0, i < 40 ? 1 : 0));
    expect(b.events.length).toBe(1200);
    expect(Array.from(b.events.subarray(4 * 299, 4 * 300))).toEqual(rec(299));
    expect(b.lines).toHaveLength(40);
    expect(b.droppedRecords + b.droppedLines).toBe(0);
    expect(b.capacityBytes).toBeLessThanOrEqual(4 * 4000);
  });

  it("past its caps drops the oldest, counts them, and stops growing", () => {
    const b = new LiveBuffer(1000, 100);
    let sent = 0;
    for (let batch = 0; batch < 200; batch++) {
      const words: number[] = [];
      for (let j = 0; j < 37; j++) words.push(...rec(sent++));
      b.append(Uint32Array.from(words), Array.from({ length: 7 }, (_, j) => `l${batch}.${j}`));
    }
    const n = b.events.length / 4;
    expect(n).toBeLessThanOrEqual(1000);
    expect(n + b.droppedRecords).toBe(sent);
    expect(b.events[b.events.length - 3]).toBe(sent - 1); // the newest is kept
    expect(b.events[1]).toBe(b.droppedRecords); // and what is kept follows on from what went
    expect(b.lines.length).toBeLessThanOrEqual(100);
    expect(b.lines.length + b.droppedLines).toBe(1400);
    expect(b.lines.at(-1)).toBe("l199.6");
    expect(b.capacityBytes).toBeLessThanOrEqual(1000 * 16);
  });

  it("whatever the batches, the kept records are the newest, whole and in order", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 60 }), fc.integer({ min: 1, max: 500 }), (batches, max) => {
        const b = new LiveBuffer(max, 10);
        let sent = 0;
        for (const k of batches) b.append(Uint32Array.from(Array.from({ length: k }, () => rec(sent++)).flat()), []);
        const kept = b.events.length / 4;
        expect(Number.isInteger(kept)).toBe(true);
        expect(kept).toBeLessThanOrEqual(max);
        expect(kept + b.droppedRecords).toBe(sent);
        for (let i = 0; i < kept; i++) expect(b.events[i * 4 + 1]).toBe(sent - kept + i);
      }),
    );
  });
});
