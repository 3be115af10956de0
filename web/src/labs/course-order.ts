// The course's suggested order, apart from the checks in course.ts: the home page orders its
// cards with it and loads no lab parser for it.

/** What the order reads of a lab: a parsed Lab, or a course card (course-cards.ts). */
interface Ordered {
  lab: { meta: { id: string; order?: number } };
}

/** The labs in the suggested order: by `order:`, then those without one, by id. */
export function courseOrder<T extends Ordered>(labs: readonly T[]): T[] {
  const key = (l: T) => l.lab.meta.order ?? Number.POSITIVE_INFINITY;
  return [...labs].sort((a, b) => key(a) - key(b) || a.lab.meta.id.localeCompare(b.lab.meta.id));
}

/** The lab before and after `id` on the course's path (none at its ends, or for a lab not in it). */
export function neighbours<T extends Ordered>(labs: readonly T[], id: string): { index: number; prev?: T; next?: T } {
  const path = courseOrder(labs);
  const i = path.findIndex((l) => l.lab.meta.id === id);
  if (i < 0) return { index: -1 };
  return { index: i, prev: path[i - 1], next: path[i + 1] };
}

