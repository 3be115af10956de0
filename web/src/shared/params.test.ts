// Parameters as typed or linked: a value is taken as it is or refused with words, never
// turned into another value.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkParam, decimal, int, oneOf, text } from "./params";

describe("checkParam", () => {
  const spec = int("n", -3, 60_000, 256);

  it("takes a whole number in range as that number, and says what is wrong with anything else", () => {
    expect(checkParam(spec, "42")).toEqual({ value: 42 });
    expect(checkParam(spec, " 7 ")).toEqual({ value: 7 });
    expect(checkParam(spec, "-5")).toEqual({ error: "-5 is outside -3–60000" });
    expect(checkParam(spec, "99999999999")).toEqual({ error: "99999999999 is outside -3–60000" });
    expect(checkParam(spec, "1e3")).toEqual({ error: '"1e3" is not a whole number' });
    expect(checkParam(spec, "")).toEqual({ error: "empty: give a whole number" });
    expect(checkParam(int("c", 1, 120, 8, [2, 8]), "3")).toEqual({ error: "3 is not one of 2, 8" });
    expect(checkParam(decimal("g", 0, 10, 1), "2.5")).toEqual({ value: 2.5 });
    expect(checkParam(decimal("g", 0, 10, 1), "-0.5")).toEqual({ error: "-0.5 is outside 0–10" });
    expect(checkParam(oneOf("d", ["ssd", "hdd"] as const, "hdd"), "floppy")).toEqual({ error: '"floppy" is not one of ssd, hdd' });
    expect(checkParam(text("t", 3, "a"), "abcd")).toEqual({ error: "longer than 3 characters" });
  });

  it("never throws, and a value it takes is in range and reads back as what was typed", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer().map(String), fc.double().map(String)), (raw) => {
        const r = checkParam(spec, raw);
        if ("value" in r) {
          expect(Number.isInteger(r.value)).toBe(true);
          expect(r.value as number).toBeGreaterThanOrEqual(-3);
          expect(r.value as number).toBeLessThanOrEqual(60_000);
          expect(Number(raw.trim())).toBe(r.value);
        } else expect(r.error.length).toBeGreaterThan(0);
      }),
      { numRuns: 5000 },
    );
  });

  it("takes every whole number in range, and refuses every one outside", () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000, max: 100_000 }), (n) => {
        const r = checkParam(spec, String(n));
        expect("value" in r).toBe(n >= -3 && n <= 60_000);
      }),
    );
  });
});
