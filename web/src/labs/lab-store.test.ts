// Version 1 of the lab store moved into version 2's one store: each kind of record, the layout
// before heads, and what is left behind. (The upgrade itself runs on real IndexedDB in
// Chromium: e2e/course.e2e.ts moves a learner's progress, e2e/reload.e2e.ts a lab's machines.)
import { describe, expect, it } from "vitest";
import { migrateV1 } from "./lab-store";

const LAB = "exfat-discard";
const machine = (step: number, savedAt: number) => ({ lab: LAB, step, guest: "g", v86: "v", memory: 256, savedAt, gz: new Blob(["x"]), rawBytes: 1 });
const progress = { lab: LAB, labHash: "h", guest: "g", step: 1, startedAt: 1, updatedAt: 2, steps: [] };
const byKey = (records: Array<[string, unknown]>) => Object.fromEntries(records);

describe("migrateV1", () => {
  it("a lab's progress under <lab>/progress, its head and machines under their keys, each with its kind", () => {
    const head = { lab: LAB, newest: `${LAB}/m/20-2-b`, newestAt: 20, newestKind: "latest", step: `${LAB}/m/10-1-a`, stepAt: 10 };
    const out = byKey(migrateV1([[LAB, progress]], [[`${LAB}/head`, head], [`${LAB}/m/10-1-a`, machine(0, 10)], [`${LAB}/m/20-2-b`, machine(0, 20)]]));
    expect(Object.keys(out).sort()).toEqual([`${LAB}/head`, `${LAB}/m/10-1-a`, `${LAB}/m/20-2-b`, `${LAB}/progress`]);
    expect(out[`${LAB}/progress`]).toEqual({ ...progress, kind: "progress" });
    expect(out[`${LAB}/head`]).toEqual({ ...head, kind: "head" });
    expect(out[`${LAB}/m/20-2-b`]).toMatchObject({ kind: "machine", savedAt: 20 });
  });

  it("the layout before heads: machine records and a head, the newer of <lab>/step and <lab>/latest restored", () => {
    const out = byKey(migrateV1([], [[`${LAB}/step`, machine(1, 10)], [`${LAB}/latest`, machine(1, 20)]]));
    expect(out[`${LAB}/head`]).toEqual({ kind: "head", lab: LAB, newest: `${LAB}/m/20-v1-latest`, newestAt: 20, newestKind: "latest", step: `${LAB}/m/10-v1-step`, stepAt: 10 });
    expect(out[`${LAB}/m/10-v1-step`]).toMatchObject({ kind: "machine", savedAt: 10 });
    expect(out[`${LAB}/m/20-v1-latest`]).toMatchObject({ kind: "machine", savedAt: 20 });
    expect(out[`${LAB}/step`]).toBeUndefined();
    // a step's start newer than "latest" (a step opened since it passed): the start is the newest, "latest" left behind
    const newer = byKey(migrateV1([], [[`${LAB}/step`, machine(2, 30)], [`${LAB}/latest`, machine(1, 20)]]));
    expect(newer[`${LAB}/head`]).toMatchObject({ newest: `${LAB}/m/30-v1-step`, newestKind: "step", step: `${LAB}/m/30-v1-step` });
    expect(Object.keys(newer).sort()).toEqual([`${LAB}/head`, `${LAB}/m/30-v1-step`]);
    // "latest" alone: the newest, and no step's start
    expect(byKey(migrateV1([], [[`${LAB}/latest`, machine(1, 20)]]))[`${LAB}/head`]).toEqual({ kind: "head", lab: LAB, newest: `${LAB}/m/20-v1-latest`, newestAt: 20, newestKind: "latest" });
  });

  it("a lab with a head keeps it: <lab>/step and <lab>/latest an older tab wrote beside it are left behind", () => {
    const head = { lab: LAB, newest: `${LAB}/m/20-2-b`, newestAt: 20, newestKind: "step", step: `${LAB}/m/20-2-b`, stepAt: 20 };
    const out = byKey(migrateV1([], [[`${LAB}/head`, head], [`${LAB}/m/20-2-b`, machine(1, 20)], [`${LAB}/latest`, machine(1, 99)]]));
    expect(Object.keys(out).sort()).toEqual([`${LAB}/head`, `${LAB}/m/20-2-b`]);
  });

  it("what is not a record is left behind; a damaged record moves, to be refused where it is read", () => {
    const out = byKey(migrateV1([[LAB, "junk"], ["other", { lab: "other", step: "three" }]], [[`${LAB}/m/1-1-a`, null], ["stray", { a: 1 }]]));
    expect(Object.keys(out)).toEqual(["other/progress"]);
    expect(out["other/progress"]).toEqual({ lab: "other", step: "three", kind: "progress" });
  });

  it("several labs apart", () => {
    const out = byKey(migrateV1([[LAB, progress], ["sd-card", { ...progress, lab: "sd-card" }]], [["sd-card/step", { ...machine(0, 5), lab: "sd-card" }]]));
    expect(Object.keys(out).sort()).toEqual([`${LAB}/progress`, "sd-card/head", "sd-card/m/5-v1-step", "sd-card/progress"]);
  });
});
