// A lab's card made in the page, for a lab whose card in labs/index.json is missing or was made
// from another text: loaded by course-list.ts only then, with the lab parser it needs.
import { entryOf } from "./registry";
import { cardOf } from "./course-card-make";
import type { CourseCard } from "./course-cards";

export const parsedCard = (id: string, source: string, context: string): CourseCard => cardOf(source, entryOf(id, source, `labs/${id}/lab.md`, id), context);
