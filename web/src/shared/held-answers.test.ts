// The keys a lab page leaves for the playgrounds: read back only as lists of keys of the model
// asked for; anything else in the store (another lab's model, a damaged entry, our other keys) is
// left out, and a store that refuses is an empty hold, never an error.
import { afterEach, describe, expect, it } from "vitest";
import { heldAcrossLabs, rememberHeld } from "./held-answers";

/** localStorage's interface over a Map (Node has no localStorage) */
class MapStorage {
  m = new Map<string, string>();
  get length() {
    return this.m.size;
  }
  key(i: number) {
    return [...this.m.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, String(v));
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}
const g = globalThis as { localStorage?: unknown };
afterEach(() => delete g.localStorage);

const key = (files: number) => ({ model: "exfat.dir-examined", params: { files, remove_every: 3, long_names: 40, empty_hint: 0 }, step: 3 });

describe("the held answers the playgrounds read", () => {
  it("keeps each lab's keys, forgets them when none is open, and reads only the model asked for", () => {
    const s = (g.localStorage = new MapStorage());
    rememberHeld("exfat-empty-hint", [key(160), { model: "f2fs.valid-nids", params: { nids: 3 }, step: 2 }]);
    rememberHeld("other", [key(170)]);
    s.setItem("fslab-learner", "h");
    expect(heldAcrossLabs("exfat.dir-examined").map((k) => k.params.files).sort()).toEqual([160, 170]);
    rememberHeld("other", []);
    expect(s.getItem("fslab-held:other")).toBeNull();
    expect(heldAcrossLabs("exfat.dir-examined")).toEqual([key(160)]);
  });

  it("leaves out what is not a list of keys", () => {
    const s = (g.localStorage = new MapStorage());
    for (const [i, v] of ["{", "null", "3", '{"model":"exfat.dir-examined"}', '[null, 1, {"model":"exfat.dir-examined","params":[1],"step":1}]', '[{"model":"exfat.dir-examined","params":{"files":{"x":1}},"step":1}]', '[{"model":"exfat.dir-examined","params":{"files":1},"step":"1"}]'].entries())
      s.setItem(`fslab-held:bad${i}`, v);
    s.setItem("fslab-held:good", JSON.stringify([key(200)]));
    expect(heldAcrossLabs("exfat.dir-examined")).toEqual([key(200)]);
  });

  it("holds nothing, and throws nothing, when storage is refused", () => {
    g.localStorage = new Proxy({}, { get: () => { throw new Error("SecurityError"); } });
    expect(() => rememberHeld("exfat-empty-hint", [key(160)])).not.toThrow();
    expect(heldAcrossLabs("exfat.dir-examined")).toEqual([]);
  });
});
