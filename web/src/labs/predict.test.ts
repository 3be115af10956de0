import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { commandActual, countedActual, eventsCounted, near, parseGuess, parsePredict, predictionVerdict } from "./predict";
import { parseLab } from "./lab-format";
import { seenEvent } from "./expect";

const discard = (batched: number) => seenEvent(`  rm-1 [000] ..... 1.0: exfat_discard: dev 7:0 clu 5 count 16 batched=${batched}`)!;

describe("predict blocks", () => {
  it("read a number question counted from the kernel's events", () => {
    const r = parsePredict("question: How many?\nunit: requests\nactual:\n  event: exfat_discard\n  where: { batched: 0 }\n");
    if ("error" in r) throw new Error(r.error);
    expect(r.predict).toMatchObject({ question: "How many?", unit: "requests" });
    expect(countedActual(r.predict, [discard(0), discard(1), discard(0)])).toBe("2");
  });

  it("with since:, count the newest run alone, whole, whatever ran before it or before the guess", () => {
    const r = parsePredict('question: How many?\nactual:\n  event: exfat_discard\n  where: { batched: 0 }\n  since: "fslab: run"\n');
    if ("error" in r) throw new Error(r.error);
    const mark = seenEvent("  sh-1 [000] ..... 1.0: tracing_mark_write: fslab: run 2")!;
    expect(countedActual(r.predict, [discard(0), discard(0), mark, discard(0), discard(1)], 2)).toBe("1");
    expect(countedActual(r.predict, [discard(0)])).toBe("0"); // no run yet
  });

  it("with sum:, add up a field of the events counted: the kernel's own figure, less what was there at the guess", () => {
    const search = (examined: number | string) => seenEvent(`  sh-1 [000] ..... 1.0: exfat_empty_search: dev 7,1 hint 0 start 0 examined ${examined} result 3 num_entries 2`)!;
    const r = parsePredict("question: How many entries?\nactual:\n  event: exfat_empty_search\n  sum: examined\n");
    if ("error" in r) throw new Error(r.error);
    expect(countedActual(r.predict, [search(3), search(40), search(0)])).toBe("43");
    expect(countedActual(r.predict, [search(3), search(40), search(7)], 43)).toBe("7"); // 43 were there at the guess
    const mark = seenEvent("  sh-1 [000] ..... 1.0: tracing_mark_write: fslab: dir run")!;
    const since = parsePredict('question: q\nactual:\n  event: exfat_empty_search\n  since: "fslab: dir run"\n  sum: examined\n');
    if ("error" in since) throw new Error(since.error);
    expect(countedActual(since.predict, [search(5), mark, search(2), search(9)])).toBe("11"); // the mkdir's search before the mark is not
    // events there at the guess mark it as made after measuring, even when they add up to 0
    expect(eventsCounted(r.predict, [search(0)])).toBe(1);
    expect(countedActual(r.predict, [search(0)])).toBe("0");
    // a field that is not a number gives no figure rather than a wrong one
    expect(countedActual(r.predict, [search(3), search("x")])).toBeNull();
    expect(parsePredict("question: q\nactual:\n  event: exfat_empty_search\n  sum: [examined]\n")).toMatchObject({ error: /sum: names one field/ });
  });

  it("read a choice answered by a guest command's first line", () => {
    const r = parsePredict('question: Which?\nchoices: [none, kyber]\nactual: awk \'{print $2}\' /mnt/host/x\n');
    if ("error" in r) throw new Error(r.error);
    expect(r.predict.choices).toEqual(["none", "kyber"]);
    expect("command" in r.predict.actual && r.predict.actual.command).toBe("awk '{print $2}' /mnt/host/x");
    expect(commandActual("\n  kyber \nnone\n")).toBe("kyber");
    expect(commandActual("  \n")).toBeNull();
  });

  it.each([
    ["actual: x\n", /question:/, 1],
    ["question: q\n", /actual:/, 1],
    ["question: q\nactual: x\ncolour: red\n", /unknown key "colour"/, 3],
    ["question: q\nchoices: [a]\nactual: x\n", /at least two/, 2],
    ["question: q\nchoices: [a, a]\nactual: x\n", /twice/, 2],
    ["question: q\nchoices: [a, b]\nunit: s\nactual: x\n", /unit: goes with a number/, 3],
    ["question: q\nactual:\n  event: Bad-Name\n", /actual: event:/, 2],
    ["question: q\nactual:\n  event: e\n  count: 3\n", /not count:/, 2],
    ["question: [\n", /not valid YAML/, 2],
    ["question: q\nactual: !sh cat /x\n", /does not take: Unresolved tag: !sh/, 2],
    // the command form is plain text: the error says so, not only the event form's keys
    ["question: q\nactual: { command: cat /x }\n", /not command:; a shell command is written as text after actual: itself \(actual: cat/, 2],
    ["question: q\nactual:\n  event: e\n  run: ls\n", /not run:/, 2],
  ])("refuse %j, naming the line", (body, msg, line) => {
    const r = parsePredict(body);
    expect("error" in r && r.error).toMatch(msg);
    expect("line" in r && r.line).toBe(line);
  });

  it("take a guess as a number or one of the choices, and say what is wrong otherwise", () => {
    const num = parsePredict("question: q\nactual: x\n");
    const choice = parsePredict("question: q\nchoices: [yes, no]\nactual: x\n");
    if ("error" in num || "error" in choice) throw new Error("setup");
    expect(parseGuess(num.predict, " 20,971,520 ")).toEqual({ value: "20971520" });
    expect(parseGuess(num.predict, "0.5")).toEqual({ value: "0.5" });
    expect(parseGuess(num.predict, "-5")).toEqual({ error: "write a number of zero or more" });
    expect(parseGuess(num.predict, "lots")).toEqual({ error: "write a number, such as 64 or 0.5" });
    expect(parseGuess(choice.predict, "no")).toEqual({ value: "no" });
    expect(parseGuess(choice.predict, "maybe")).toEqual({ error: "choose one of yes, no" });
  });

  it("call a guess near within 10% or the same choice", () => {
    expect(near("64", "64")).toBe(true);
    expect(near("60", "64")).toBe(true);
    expect(near("16", "4")).toBe(false);
    expect(near("0", "0")).toBe(true);
    expect(near("kyber", "kyber")).toBe(true);
    expect(near(null, "4")).toBe(false);
    expect(near("4", undefined)).toBe(false);
  });

  it("say a near guess is near, with by how much, and only an exact one is exact", () => {
    expect(predictionVerdict("11761", "11761", false, " entries")).toBe(": exactly your prediction.");
    expect(predictionVerdict("64.0", "64", false, "")).toBe(": exactly your prediction.");
    // the F2FS scans without their bitmap bits: 7% off, a wrong idea of what is counted
    expect(predictionVerdict("10920", "11761", false, " entries")).toBe(": within 10% of your prediction, which was 841 entries under.");
    expect(predictionVerdict("70", "64", false, " µs")).toBe(": within 10% of your prediction, which was 6 µs over.");
    expect(predictionVerdict("16", "4", false, " requests")).toBe(": further off than 10%; what the lab says next explains why.");
    expect(predictionVerdict("kyber", "kyber", true, "")).toBe(": exactly your prediction.");
    expect(predictionVerdict("none", "kyber", true, "")).toBe(": not what you predicted.");
  });

  it("never throw on any body, and name a line inside it when refusing", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (body) => {
        const r = parsePredict(body);
        if ("error" in r) expect(r.line).toBeGreaterThanOrEqual(1);
      }),
    );
  });

  it("must come before a vm block in its step", () => {
    const lab = (body: string) => parseLab(`---\ntitle: t\n---\n## s\n${body}`, []);
    expect(() => lab("```predict\nquestion: q\nactual: x\n```\n")).toThrow(/lab.md:5: a predict block comes before the measurement/);
    expect(lab("```predict\nquestion: q\nactual: x\n```\n```vm\nls\n```\n```check\ntrue\n```\n").steps[0].blocks.map((b) => b.kind)).toEqual(["predict", "vm", "check"]);
    // without a check, Next would pass the step unmeasured
    expect(() => lab("```predict\nquestion: q\nactual: x\n```\n```vm\nls\n```\n")).toThrow(/lab.md:5: step "s" asks a prediction but has no check or expect block/);
    expect(() => lab("```predict\nquestion: q\nactual: x\nfoo: 1\n```\n```vm\nls\n```\n")).toThrow(/lab.md:8: predict: unknown key "foo"/);
  });
});
