// The embed API's parsers: whatever a foreign page posts is either one of the host messages or
// refused with a reason (never a throw), and the origins file is read strictly.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseConfig, parseHostMessage } from "./messages";

describe("host messages", () => {
  it("reads the four kinds, and set's parameters", () => {
    expect(parseHostMessage({ fslab: 1, type: "ping" })).toEqual({ fslab: 1, type: "ping" });
    expect(parseHostMessage({ fslab: 1, type: "start", extra: 1 })).toEqual({ fslab: 1, type: "start" });
    expect(parseHostMessage({ fslab: 1, type: "set", params: { runs: 8, device: "ssd" } })).toEqual({ fslab: 1, type: "set", params: { runs: 8, device: "ssd" } });
  });

  it.each([
    [null, /no fslab: 1/],
    ["ping", /no fslab: 1/],
    [{ fslab: 2, type: "ping" }, /no fslab: 1/],
    [{ fslab: 1, type: "eval" }, /unknown message type "eval"/],
    [{ fslab: 1, type: "set" }, /needs params/],
    [{ fslab: 1, type: "set", params: { "__proto__ x": 1 } }, /is not a parameter name/],
    [{ fslab: 1, type: "set", params: { runs: { valueOf: 8 } } }, /runs must be a number or a text/],
  ])("refuses %j", (data, msg) => {
    const r = parseHostMessage(data);
    expect("error" in r && r.error).toMatch(msg);
  });

  it("never throws on anything a page can post, and keeps nothing but names and scalars", () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ fslab: fc.constant(1), type: fc.constantFrom("ping", "set", "reset", "start", "x"), params: fc.anything() })), (data) => {
        const r = parseHostMessage(data);
        if ("error" in r) return typeof r.error === "string";
        if (r.type !== "set") return true;
        return Object.entries(r.params).every(([k, v]) => /^[a-z_][a-z0-9_]*$/i.test(k) && (typeof v === "string" || typeof v === "number"));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("fslab-embed.json", () => {
  it("takes origins and *; refuses a URL that is not an origin, naming it", () => {
    expect(parseConfig('{"allowedOrigins": ["https://docs.example.org", "*"]}')).toEqual({ allowedOrigins: ["https://docs.example.org", "*"] });
    expect(parseConfig('{"allowedOrigins": ["https://docs.example.org/guide/"]}')).toEqual({ error: 'fslab-embed.json: "https://docs.example.org/guide/" is not an origin (write it as https://docs.example.org)' });
    expect("error" in parseConfig("{")).toBe(true);
    expect("error" in parseConfig('{"allowedOrigins": "https://x.org"}')).toBe(true);
  });
});
