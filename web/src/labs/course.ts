// The labs of a site as one course: the suggested order (each lab's `order:`, then the labs
// without one by id), so that every lab's "Next" leads to the one after it and the path
// passes through every lab once; and what the labs' `requires:` and `order:` must agree on,
// checked across a labs folder (`fslab labs check`), each error naming file:line.
import { LabFormatError, type Lab } from "./lab-format";
import { DIFFICULTIES } from "./stack";
import { courseOrder } from "./course-order";

export { courseOrder, neighbours } from "./course-order";

export interface CourseLab {
  /** the lab's file as messages name it (labs/<id>/lab.md) */
  file: string;
  /** its text: errors point at the frontmatter line of the key they are about */
  source: string;
  lab: Lab;
}

/** The line of a frontmatter key in a lab file (1 if it is not there). */
export function keyLine(source: string, key: string): number {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const end = lines.indexOf("---", 1);
  const i = lines.slice(1, end < 0 ? lines.length : end).findIndex((l) => l.startsWith(`${key}:`));
  return i < 0 ? 1 : i + 2;
}

/**
 * What is wrong with a folder of labs as a course, file:line each, in the labs' order:
 * two labs with the same `order`, a `requires` that names no lab of the folder, a lab that
 * requires one the course puts after it (or that has no place in it while this one has), and
 * labs that require each other round in a circle.
 */
export function courseErrors(labs: readonly CourseLab[]): LabFormatError[] {
  const errors: LabFormatError[] = [];
  const byId = new Map(labs.map((l) => [l.lab.meta.id, l]));
  const orderOwner = new Map<number, CourseLab>();
  for (const l of courseOrder(labs)) {
    const o = l.lab.meta.order;
    if (o === undefined) continue;
    const first = orderOwner.get(o);
    if (first)
      errors.push(new LabFormatError(l.file, keyLine(l.source, "order"), `order ${o} is also ${first.lab.meta.id}'s (${first.file}:${keyLine(first.source, "order")}): each lab needs its own place in the course`));
    else orderOwner.set(o, l);
  }
  for (const l of labs) {
    const line = keyLine(l.source, "requires");
    const o = l.lab.meta.order;
    for (const r of l.lab.meta.requires) {
      const req = byId.get(r);
      if (!req) {
        errors.push(new LabFormatError(l.file, line, `requires "${r}", and there is no lab ${r} beside it (labs: ${[...byId.keys()].sort().join(", ")})`));
        continue;
      }
      const ro = req.lab.meta.order;
      if (o !== undefined && (ro === undefined || ro >= o))
        errors.push(
          new LabFormatError(l.file, line, `requires ${r}, which the course puts ${ro === undefined ? "nowhere (it has no order)" : `after it (order ${ro}, this lab's is ${o})`}: a prerequisite comes earlier`),
        );
    }
  }
  // a lab's closing "next" link leads to the next lab on the course's path (the last lab's, anywhere):
  // the page's "Next lab" and the text must not send the learner two ways
  const path = courseOrder(labs).filter((l) => l.lab.meta.order !== undefined);
  path.forEach((l, i) => {
    const next = path[i + 1];
    if (!next) return;
    const last = l.lab.steps.at(-1);
    const links = (last?.blocks ?? []).flatMap((b) => (b.kind === "markdown" || b.kind === "learned" ? [...b.text.matchAll(/\(#\/lab\/([\w-]+)\)/g)].map((m) => ({ id: m[1], line: b.line })) : []));
    const closing = links.at(-1);
    // none at all is a gap (courseGaps' warning), not a contradiction
    if (closing && closing.id !== next.lab.meta.id)
      errors.push(new LabFormatError(l.file, closing.line, `the closing link leads to ${closing.id}, but the course's next lab is ${next.lab.meta.id} (order ${next.lab.meta.order}): the last lab link of the last step is the learner's way on`));
  });
  // the course's difficulty never falls: a harder lab comes after the easier ones
  path.forEach((l, i) => {
    const d = DIFFICULTIES.indexOf(l.lab.meta.difficulty!);
    const before = path.slice(0, i).find((p) => DIFFICULTIES.indexOf(p.lab.meta.difficulty!) > d);
    if (d >= 0 && before)
      errors.push(new LabFormatError(l.file, keyLine(l.source, "difficulty"), `difficulty ${l.lab.meta.difficulty} comes after ${before.lab.meta.id}'s ${before.lab.meta.difficulty} (order ${before.lab.meta.order}): the course gets harder as it goes, never easier`));
  });
  // a circle of prerequisites, found from each lab in turn (once per circle)
  const reported = new Set<string>();
  for (const start of labs) {
    const path: string[] = [];
    const walk = (id: string): string[] | null => {
      const at = path.indexOf(id);
      if (at >= 0) return path.slice(at).concat(id);
      const l = byId.get(id);
      if (!l) return null;
      path.push(id);
      for (const r of l.lab.meta.requires) {
        const c = walk(r);
        if (c) return c;
      }
      path.pop();
      return null;
    };
    const circle = walk(start.lab.meta.id);
    if (!circle || circle[0] !== start.lab.meta.id) continue;
    const key = [...circle.slice(0, -1)].sort().join(" ");
    if (reported.has(key)) continue;
    reported.add(key);
    errors.push(new LabFormatError(start.file, keyLine(start.source, "requires"), `the labs require each other in a circle: ${circle.join(" → ")}`));
  }
  return errors.sort((a, b) => labs.findIndex((l) => l.file === a.file) - labs.findIndex((l) => l.file === b.file) || a.line - b.line);
}

/** Keys a lab in a course should have: `fslab labs check` warns of each one missing. */
export function courseGaps(l: CourseLab): string[] {
  const m = l.lab.meta;
  const gaps: string[] = [];
  if (m.order === undefined) gaps.push("order (its place in the course: it comes after the labs that have one)");
  if (m.difficulty === undefined) gaps.push("difficulty");
  if (!m.layers.length) gaps.push("layers (where the home page's storage stack draws it)");
  return gaps;
}
