// Who the learner is, for their progress files and their seeded problems (seed.ts): the name or
// ID they gave the page (kept in this browser's localStorage), or, for a lab started without
// one, a random identity kept with that lab's progress, so the problem stays theirs across
// visits and "Start over" is the only thing that draws a new one. An LMS's learner ID (SCORM)
// takes the name's place.
import { randomIdentity } from "./seed";

/** Where the learner's name or ID is kept: this browser only, for every lab's progress file. */
export const LEARNER_KEY = "fslab-learner";

export function storedLearner(): string {
  try {
    return localStorage.getItem(LEARNER_KEY) ?? "";
  } catch {
    return ""; // storage refused: asked again next time
  }
}

export function keepLearner(name: string): void {
  try {
    localStorage.setItem(LEARNER_KEY, name);
  } catch {
    // not kept: the progress file still carries it
  }
}

/** The identity a lab's problem is drawn from as it starts: the learner's name or ID, or a random one. */
export function newLabIdentity(): string {
  return storedLearner().trim() || randomIdentity();
}
