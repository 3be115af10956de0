// A lab's stated time against its words, its recorded walk and its thinking time (lab-time.ts).
import { describe, expect, it } from "vitest";
import { parseLab } from "./lab-format";
import { durationSeconds } from "./duration";
import { labTime, labWords, timeError, timeWarning, walkDrift, READING_PACE } from "./lab-time";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
// 200 words of text, a command and a check (neither read), a learned block of 100 words
const labText = (fm: string) =>
  `---\ntitle: T\n${fm}\n---\n\n## Two words\n\n${words(198)}\n\n\`\`\`vm\ntouch /tmp/a b c d e f\n\`\`\`\n\n\`\`\`check\ntest -e /tmp/a\n\`\`\`\n\n\`\`\`learned\n${words(100)}\n\`\`\`\n`;
const lab = (fm: string) => parseLab(labText(fm), [], "lab.md", "t");

describe("a lab's time", () => {
  it("reads durations as the frontmatter writes them", () => {
    expect(durationSeconds("25 s")).toBe(25);
    expect(durationSeconds("1.5 min")).toBe(90);
    expect(durationSeconds("about 35 min")).toBe(35 * 60);
    expect(durationSeconds(12)).toBe(12 * 60);
    expect(durationSeconds("1 h")).toBe(3600);
    expect(durationSeconds("a while")).toBeNull();
    expect(durationSeconds(0)).toBeNull();
  });

  it("counts the words a learner reads: titles, text, learned; not commands or checks", () => {
    expect(labWords(lab("time: 5 min"))).toBe(2 + 198 + 100);
  });

  it("is reading at the stated pace + the recorded walk + the thinking time", () => {
    const t = labTime(lab("time: 9 min\nwalk: 60 s\nthink: 5 min"))!;
    expect(t.reading).toBe(300 / READING_PACE);
    expect(t.computed).toBe(3 + 1 + 5);
    expect(t.stated).toBe(9);
    expect(labTime(lab("time: 9 min"))).toBeNull();
  });

  it("fails a stated time far from the computed one, and passes one near it", () => {
    expect(timeError(lab("time: 9 min\nwalk: 60 s\nthink: 5 min"))).toBeNull();
    // 9 computed: within 5 min either side passes (a quarter of 9 is less than 5)
    expect(timeError(lab("time: 14 min\nwalk: 60 s\nthink: 5 min"))).toBeNull();
    expect(timeError(lab("time: 30 min\nwalk: 60 s\nthink: 5 min"))).toMatch(
      /^time 30 min is far from what the lab takes: reading 3 min \(300 words at 100 a minute\) \+ walk 1 min \+ think 5 min = 9 min, and a stated time may be off by 5 min at most: state about 9 min/,
    );
    expect(timeError(lab("time: 3 min\nwalk: 60 s\nthink: 5 min"))).toMatch(/^time 3 min is far/);
    // a longer lab: a quarter of it
    expect(timeError(lab("time: 45 min\nwalk: 60 s\nthink: 50 min"))).toBeNull();
    expect(timeError(lab("time: 30 min\nwalk: 60 s\nthink: 50 min"))).toMatch(/may be off by 13\.5 min at most/);
    expect(timeError(lab('time: "one afternoon"\nwalk: 60 s'))).toMatch(/^time "one afternoon" states no minutes: state about 4 min/);
  });

  it("warns of a stated time with no walk recorded; a lab with neither is left alone", () => {
    expect(timeWarning(lab("time: 9 min"), true)).toMatch(/no walk: is recorded/);
    expect(timeWarning(lab(""), false)).toBeNull();
    expect(timeWarning(lab("time: 9 min\nwalk: 20 s"), true)).toBeNull();
  });

  it("refuses a walk or think that is no duration, at its line", () => {
    expect(() => lab("time: 9 min\nwalk: soon")).toThrow(/lab\.md:4: "walk" is a duration: "40 s", "1\.5 min" or minutes as a number, not "soon"/);
    expect(() => lab("think: [5]")).toThrow(/lab\.md:3: "think" is a duration/);
  });

  it("tells labs test's walk from the recorded one only past 3 times either way (30 s of slack)", () => {
    expect(walkDrift(25, 25)).toBeNull();
    expect(walkDrift(25, 100)).toBeNull(); // a machine twice as slow, and busy
    expect(walkDrift(25, 106)).toMatch(/^this walk took 106 s, and walk: records 25 s \(over 3 times that/);
    expect(walkDrift(300, 60)).toMatch(/under 1\/3 of it/);
    expect(walkDrift(300, 80)).toBeNull();
  });
});
