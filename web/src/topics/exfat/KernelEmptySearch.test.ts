// The live panel's reading of a stream that is not (yet) a model run's tail: where the lab's
// run starts in it, and how far it follows the model (KernelEmptySearch's bestAlignment).
import { describe, expect, it } from "vitest";
import { bestAlignment, modelMatching, ownSearchesFrom } from "./KernelEmptySearch";
import { EV } from "./events";
import type { DirRun } from "./exfat-dir";

// records as exfat_empty_search's: event, entries examined, hint (~0: none), slot found
const recs = (...r: Array<[number, number, number]>) => Uint32Array.from(r.flatMap(([examined, hint, slot]) => [EV.EXFAT_EMPTY_SEARCH, examined, hint, slot]));
const run = (emptyHint: boolean, events: Uint32Array): DirRun => ({ emptyHint, events, slots: new Uint8Array(), examined: 0, clusters: 1 });
const NONE = 0xffffffff;
const hint = run(true, recs([3, NONE, 0], [3, 3, 3], [3, 6, 6], [4, 9, 9]));
const old = run(false, recs([3, NONE, 0], [6, NONE, 3], [9, NONE, 6], [16, NONE, 9]));

describe("the live exFAT panel's alignment", () => {
  it("finds the lab's run after searches of another (a run given up), going on or parted", () => {
    const stray = recs([3, NONE, 0], [3, 3, 3], [7, 7, 7]);
    // the lab's run without the hint, two searches in: still going, after 3 stray searches
    const going = Uint32Array.from([...stray, ...old.events.subarray(0, 8)]);
    expect(modelMatching(going, [hint, old])).toBeNull();
    expect(bestAlignment(going, [hint, old])).toMatchObject({ start: 3, model: old, agree: 2 });
    // whole: the tail is the model's, as modelMatching says
    expect(modelMatching(Uint32Array.from([...stray, ...old.events]), [hint, old])).toBe(old);
    // parted at its third search: named there, not at the stream's first
    const parted = Uint32Array.from([...stray, ...old.events.subarray(0, 8), ...recs([10, NONE, 6])]);
    expect(bestAlignment(parted, [hint, old])).toMatchObject({ start: 3, model: old, agree: 2 });
  });

  it("tells the lab's run whole, then the learner's own creates, from a run that parted", () => {
    const stray = recs([3, NONE, 0]);
    // the run without the hint whole, then a create that took a hole's hint and read nothing
    const then = Uint32Array.from([...stray, ...old.events, ...recs([0, 6, 6])]);
    expect(modelMatching(then, [hint, old])).toBeNull();
    const aligned = bestAlignment(then, [hint, old])!;
    expect(aligned).toMatchObject({ start: 1, model: old, agree: 4 });
    expect(ownSearchesFrom(aligned)).toBe(5);
    // parted inside the run: no creates of the learner's own are told apart
    const parted = Uint32Array.from([...old.events.subarray(0, 8), ...recs([10, NONE, 6])]);
    expect(ownSearchesFrom(bestAlignment(parted, [hint, old])!)).toBeNull();
  });

  it("without any search that is the run's first, there is no alignment", () => {
    expect(bestAlignment(recs([5, 1, 1], [6, 2, 2]), [hint, old])).toBeNull();
  });
});
