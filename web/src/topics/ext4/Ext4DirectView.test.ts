// The ext4-lbs lab's measurement file, as the lab's `measure` writes it.
import { describe, expect, it } from "vitest";
import { parseMeasurements } from "./Ext4DirectView";

describe("parseMeasurements", () => {
  it("reads 'layout KiB bytes' lines into the model's layout names and write sizes in bytes", () => {
    const m = parseMeasurements("4k 4 1048576\nlbs 4 8912896\nbig 64 1048576\n\n");
    expect([...m]).toEqual([["4k/4096", 1048576], ["64k (LBS)/4096", 8912896], ["bigalloc-64k/65536", 1048576]]);
  });

  it("names the line that is not a measurement", () => {
    expect(() => parseMeasurements("4k 4 1048576\ndd: error writing '/mnt/lbs/f4': No space left on device\n")).toThrow(/line 2: expected "4k\|big\|lbs KiB bytes", got "dd: error writing/);
    expect(() => parseMeasurements("xfs 4 1\n")).toThrow(/line 1/);
  });
});
