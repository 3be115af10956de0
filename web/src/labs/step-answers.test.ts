// A prediction measured before it was answered stays marked over what takes the measurement
// back (a reload, a reset, a visit to another step): stepAnswers' noteMeasured and predict,
// without React or a machine.
import { describe, expect, it } from "vitest";
import { stepAnswers } from "./step-answers";
import { parsePredict, type Prediction } from "./predict";
import type { LabStep } from "./lab-format";
import type { LabProgress } from "./progress";
import type { SeenEvent } from "./expect";
import type { VmHandle } from "../shared/machine";

const pred = (yaml: string): Prediction => {
  const r = parsePredict(yaml);
  if ("error" in r) throw new Error(r.error);
  return r.predict;
};
const BY_COMMAND = pred("question: How many?\nactual: cat /sys/module/exfat/parameters/discard_calls");
const BY_EVENTS = pred("question: How many discards?\nactual:\n  event: exfat_discard\n  where: { batched: 0 }");
const step = { title: "s", blocks: [BY_COMMAND, BY_EVENTS].map((p, i) => ({ kind: "predict", text: "", line: i + 1, predict: p })) } as unknown as LabStep;
const discard: SeenEvent = { event: "exfat_discard", fields: { batched: "0" } };

/** one step's answers on a machine whose shell has `lines` entered, the step opened at `atOpen` */
function setup(opts: { challenge?: boolean } = {}) {
  let progress = { step: 0, steps: [{ title: "s" }] } as unknown as LabProgress;
  const ref = { current: progress };
  const m = { lines: 3, events: [] as SeenEvent[], atOpen: { current: 3 as number | null } };
  const vm = { shellLines: () => m.lines } as unknown as VmHandle;
  const update = (f: (p: LabProgress) => void) => {
    progress = structuredClone(ref.current);
    f(progress);
    ref.current = progress;
  };
  const answers = () => stepAnswers({ vm, events: () => m.events, step: { ...step, challenge: opts.challenge }, n: 0, progressRef: ref, update, linesAtOpen: m.atOpen });
  return { m, ref, answers, rec: () => ref.current.steps[0] };
}

describe("a prediction measured before it is answered", () => {
  it("a command entered marks both predictions when lines count: a count of events may be measured another way", () => {
    const { m, answers, rec } = setup();
    answers().noteMeasured(true);
    expect(rec().measured).toBeUndefined(); // nothing entered yet
    m.lines = 4;
    answers().noteMeasured(false); // a command runs: its lines may be a set-up Run's
    expect(rec().measured).toBeUndefined();
    answers().noteMeasured(true);
    expect(rec().measured).toEqual([true, "commands"]); // the events' one by the commands alone
  });

  it("commands alone, kept over a reload, still say it was the commands; a guess during a set-up Run is not marked by its lines", () => {
    const { m, answers, rec } = setup();
    m.lines = 4;
    answers().noteMeasured(true);
    expect(rec().measured).toEqual([true, "commands"]);
    m.atOpen.current = 9; // the page again: nothing entered since
    m.lines = 9;
    answers().predict(1, BY_EVENTS, "3");
    expect(rec().predictions![1]).toMatchObject({ afterMeasuring: true, measuredEarlier: true, commandsEntered: true });
    const during = setup();
    during.m.lines = 6; // a set-up Run typing
    during.answers().predict(1, BY_EVENTS, "3", false);
    during.answers().predict(0, BY_COMMAND, "3", false);
    expect(during.rec().predictions![1]).not.toHaveProperty("afterMeasuring");
    expect(during.rec().predictions![0]).not.toHaveProperty("afterMeasuring");
  });

  it("in a challenge, commands (the step's own work) do not mark a count of events to come; its events do", () => {
    const { m, answers, rec } = setup({ challenge: true });
    m.lines = 4;
    answers().noteMeasured(true);
    expect(rec().measured).toEqual([true, false]); // a command's answer is still marked
    answers().predict(1, BY_EVENTS, "3");
    expect(rec().predictions![1]).not.toHaveProperty("afterMeasuring");
    const later = setup({ challenge: true });
    later.m.events = [discard];
    later.answers().predict(1, BY_EVENTS, "3");
    expect(later.rec().predictions![1]).toMatchObject({ afterMeasuring: true, countedBefore: 1 });
  });

  it("a guess at counted events after a command (filefrag, say) is marked, and says it was the commands, not the kernel", () => {
    const { m, answers, rec } = setup();
    m.lines = 4;
    answers().predict(1, BY_EVENTS, "3");
    expect(rec().predictions![1]).toMatchObject({ guess: "3", afterMeasuring: true, commandsEntered: true });
    // the kernel's events there as well: the kernel had done it, whatever was typed
    const second = setup();
    second.m.lines = 4;
    second.m.events = [discard];
    second.answers().predict(1, BY_EVENTS, "3");
    expect(second.rec().predictions![1]).toMatchObject({ afterMeasuring: true, countedBefore: 1 });
    expect(second.rec().predictions![1]).not.toHaveProperty("commandsEntered");
  });

  it("after a reload (the lines and events counted from the machine's step start) the guesses are still marked, and say so", () => {
    const { m, answers, rec } = setup();
    m.lines = 5;
    m.events = [discard, discard];
    answers().noteMeasured(true);
    expect(rec().measured).toEqual([true, true]);
    // the page again: the machine as the step began, nothing entered nor counted since
    m.atOpen.current = 7;
    m.lines = 7;
    m.events = [];
    answers().predict(0, BY_COMMAND, "12");
    answers().predict(1, BY_EVENTS, "3");
    const [a, b] = rec().predictions!;
    expect(a).toMatchObject({ guess: "12", afterMeasuring: true, measuredEarlier: true });
    expect(b).toMatchObject({ guess: "3", afterMeasuring: true, measuredEarlier: true });
    expect(b!.countedBefore).toBeUndefined(); // the events the actual counts are all still to come
  });

  it("marks the events' prediction while a command runs, and never an answered prediction", () => {
    const { m, answers, rec } = setup();
    answers().predict(0, BY_COMMAND, "1"); // answered before anything was entered: honest
    m.lines = 4;
    m.events = [discard];
    answers().noteMeasured(false);
    expect(rec().measured).toEqual([false, true]);
    expect(rec().predictions![0]).not.toHaveProperty("afterMeasuring");
  });

  it("a guess made with nothing measured is not marked", () => {
    const { answers, rec } = setup();
    answers().noteMeasured(true);
    answers().predict(1, BY_EVENTS, "2");
    expect(rec().predictions![1]).not.toHaveProperty("afterMeasuring");
    expect(rec().predictions![1]).not.toHaveProperty("measuredEarlier");
  });

  it("a damaged mark in the store (not a list of true) marks nothing, and is replaced by the next", () => {
    const { m, answers, rec, ref } = setup();
    (ref.current.steps[0] as unknown as { measured: unknown }).measured = "yes";
    answers().predict(0, BY_COMMAND, "1");
    expect(rec().predictions![0]).not.toHaveProperty("afterMeasuring");
    m.events = [discard];
    answers().noteMeasured(true);
    expect(rec().measured).toEqual([false, true]);
  });
});
