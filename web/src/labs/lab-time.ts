// A lab's stated time against what it is made of (docs/authoring.md, "Times that were
// measured"): the text read at READING_PACE words a minute (its words counted here), the
// walk of its solutions that `fslab labs test` measured (frontmatter `walk:`), and the time the
// author expects working things out to take (`think:`: the challenge, the predictions and
// questions, the views). `fslab labs check` fails a lab whose `time:` is far from their sum;
// `fslab labs test` warns when its own walk is far from the recorded one.
import type { Lab } from "./lab-format";
import { durationSeconds } from "./duration";

/** The reading pace the stated times assume: words a minute (technical text, read closely). */
export const READING_PACE = 100;
/** How far a stated time may be from the computed one: this fraction of it, or TIME_SLACK_MIN. */
export const TIME_TOLERANCE = 0.25;
/** ...whichever is more, in minutes (short labs round to 5 minutes). */
export const TIME_SLACK_MIN = 5;
/**
 * How many times slower or faster than the recorded walk `labs test`'s own walk may be before
 * it warns (a machine twice as slow, and a busy one, stay inside), plus WALK_SLACK_S seconds.
 */
export const WALK_RATIO = 3;
export const WALK_SLACK_S = 30;

const countWords = (s: string) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * The words a learner reads in a lab: its steps' titles and text, what each step taught
 * (`learned`), and the questions asked (predictions' and questions', with their choices).
 * Not the commands, checks, hints or solutions: those are run or asked for, not read through.
 */
export function labWords(lab: Lab): number {
  let n = 0;
  for (const s of lab.steps) {
    n += countWords(s.title);
    for (const b of s.blocks) {
      if (b.kind === "markdown" || b.kind === "learned") n += countWords(b.text);
      else if (b.kind === "predict" || b.kind === "question") {
        const q = b.kind === "predict" ? b.predict : b.question;
        n += countWords([q.question, q.unit ?? "", ...(q.choices ?? [])].join(" "));
      }
    }
  }
  return n;
}

export interface LabTime {
  words: number;
  /** minutes */
  reading: number;
  walk: number;
  think: number;
  computed: number;
  /** what `time:` states, in minutes (null if it states no number of minutes) */
  stated: number | null;
}

const min1 = (x: number) => (Math.round(x * 10) / 10).toString();

/** The lab's time, computed; null for a lab without a recorded walk (nothing measured to hold it to). */
export function labTime(lab: Lab): LabTime | null {
  if (lab.meta.walk === undefined) return null;
  const words = labWords(lab);
  const reading = words / READING_PACE;
  const walk = lab.meta.walk / 60;
  const think = (lab.meta.think ?? 0) / 60;
  const s = durationSeconds(lab.meta.time);
  return { words, reading, walk, think, computed: reading + walk + think, stated: s === null ? null : s / 60 };
}

/**
 * What is wrong with a lab's stated time, as a sentence (null if nothing): it states no minutes,
 * or is further from reading + walk + think than the tolerance. A lab without `walk:` is not
 * held to it (timeWarning says so).
 */
export function timeError(lab: Lab): string | null {
  const t = labTime(lab);
  if (!t) return null;
  const parts = `reading ${min1(t.reading)} min (${t.words} words at ${READING_PACE} a minute) + walk ${min1(t.walk)} min + think ${min1(t.think)} min = ${min1(t.computed)} min`;
  if (t.stated === null) return `time "${lab.meta.time}" states no minutes: state about ${Math.round(t.computed)} min (${parts})`;
  const leeway = Math.max(TIME_SLACK_MIN, TIME_TOLERANCE * t.computed);
  if (Math.abs(t.stated - t.computed) <= leeway) return null;
  return `time ${min1(t.stated)} min is far from what the lab takes: ${parts}, and a stated time may be off by ${min1(leeway)} min at most: state about ${Math.round(t.computed)} min, or correct walk: or think:`;
}

/** A lab that states a time but records no walk: its time was not measured. */
export function timeWarning(lab: Lab, timeStated: boolean): string | null {
  if (!timeStated || lab.meta.walk !== undefined) return null;
  return `time is stated but no walk: is recorded, so nothing holds it to the lab: record the walk time fslab labs test prints (walk: 40 s) and think: (docs/authoring.md)`;
}

/** `labs test`'s walk against the recorded one, as a sentence when it is far off (null if not). */
export function walkDrift(recordedSeconds: number, measuredSeconds: number): string | null {
  const lo = recordedSeconds / WALK_RATIO - WALK_SLACK_S;
  const hi = recordedSeconds * WALK_RATIO + WALK_SLACK_S;
  if (measuredSeconds >= lo && measuredSeconds <= hi) return null;
  return `this walk took ${measuredSeconds.toFixed(0)} s, and walk: records ${recordedSeconds.toFixed(0)} s (${measuredSeconds > hi ? `over ${WALK_RATIO} times that` : `under 1/${WALK_RATIO} of it`}, give or take ${WALK_SLACK_S} s): measure it again on an idle machine and record it`;
}
