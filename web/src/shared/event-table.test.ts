// The event machinery against the C header it mirrors (each topic's records: topics/events.test.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BlkOp } from "./events";
import { opOfRwbs } from "./event-table";

const header = readFileSync(new URL("../../../wasm/include/fslab/events.h", import.meta.url), "utf8");

describe("the event table", () => {
  it("has the C side's block ops (c of the block records, and what rwbs decodes to)", () => {
    const ops = [...header.matchAll(/FSLAB_BLK_(\w+) = (\d+)/g)].map(([, n, v]) => [n, Number(v)]);
    expect(ops.length).toBeGreaterThan(0);
    const ts = Object.entries(BlkOp).filter(([, v]) => typeof v === "number").map(([n, v]) => [n.toUpperCase(), v]);
    expect(ts.sort()).toEqual(ops.sort());
  });

  it("decodes rwbs as blk_fill_rwbs() writes it, flushes ahead of data included", () => {
    expect(["R", "RA", "W", "WS", "WFS", "FWS", "FWFS", "D", "DE", "FF", "F", "FN", "N"].map(opOfRwbs)).toEqual([
      BlkOp.Read, BlkOp.Read, BlkOp.Write, BlkOp.Write, BlkOp.Write, BlkOp.Write, BlkOp.Write, BlkOp.Discard, BlkOp.Discard, BlkOp.Flush, BlkOp.Flush, BlkOp.Other, BlkOp.Other,
    ]);
  });
});
