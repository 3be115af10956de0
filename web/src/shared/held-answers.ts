// The keyed answers a learner has still to give, across the page's labs: each lab page keeps its
// own (LabRunner: unansweredKeys) in localStorage, and a playground that could compute one of
// them (the exfat directory model with the learner's own numbers) holds that figure back, as the
// lab's own views do. Best-effort, as the views' hold is: another browser, or a scenario a step
// away, is not held.
import type { HeldAnswer } from "./topic";

const PREFIX = "fslab-held:";

/** Keeps the lab's open keys (none: forgets them). Storage refused: nothing is kept. */
export function rememberHeld(labId: string, held: readonly HeldAnswer[]): void {
  try {
    if (held.length) localStorage.setItem(PREFIX + labId, JSON.stringify(held));
    else localStorage.removeItem(PREFIX + labId);
  } catch {
    // a private window's or a refused storage: the playgrounds hold nothing back
  }
}

const isParams = (p: unknown): p is HeldAnswer["params"] =>
  !!p && typeof p === "object" && !Array.isArray(p) && Object.values(p).every((v) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v)));

/** Every lab's open keys for `model` ("exfat.dir-examined"); an entry that is not such a list is left out. */
export function heldAcrossLabs(model: string): HeldAnswer[] {
  const out: HeldAnswer[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i);
      if (!name?.startsWith(PREFIX)) continue;
      let list: unknown;
      try {
        list = JSON.parse(localStorage.getItem(name) ?? "null");
      } catch {
        continue;
      }
      if (!Array.isArray(list)) continue;
      for (const k of list)
        if (k && k.model === model && isParams(k.params) && Number.isSafeInteger(k.step)) out.push({ model, params: k.params, step: k.step });
    }
  } catch {
    // storage refused: nothing is held
  }
  return out;
}
