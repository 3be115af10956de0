// The inspect module's detection and its errors (each format's inspector is tested in its topic:
// topics/<fs>/inspect.test.ts).
import { beforeAll, describe, expect, it } from "vitest";
import type { InspectModule } from "@wasm/inspect.mjs";
import { inspectImage, InspectError } from "./inspect";
import { loadInspect, testImage as image } from "./test-images";

let module: InspectModule;
beforeAll(async () => {
  module = await loadInspect();
});

describe("bad input", () => {
  it("names what is wrong", () => {
    const bytes = image("exfat-512").bytes.slice();
    bytes[510] = 0;
    expect(() => inspectImage(module, bytes)).toThrow(new InspectError("not an exFAT volume: bad boot signature at 510"));
    expect(() => inspectImage(module, new TextEncoder().encode("hello"))).toThrow(/no filesystem fslab can inspect/);
  });
});
