// The course's cards: what the home page shows of each lab (its title, summary, layers, place
// and prerequisites, and its steps' titles for the learner's progress). They are made where a
// lab is parsed anyway, by the site's build and by `fslab labs index` (course-card-make.ts),
// and kept in labs/index.json beside the list of labs. The home page fetches each lab.md as
// before but takes the card made from that very text (same length, same hash) instead of
// parsing it, so it loads no YAML or Markdown parser. A lab dropped in or edited since its card
// was made has no card that matches: the page parses it (course-list.ts loads the parser then).
import { hash32 } from "../shared/hash";
import { DIFFICULTIES, LAYER_IDS, type Difficulty, type LayerId } from "../shared/stack";

/**
 * A line of inline Markdown, parsed where the card is made: text, code, emphasis, links. The
 * page draws it with React elements, never as HTML, so no sanitizer is needed to show it.
 */
export type Inline = string | { code: string } | { em: Inline[] } | { strong: Inline[] } | { del: Inline[] } | { a: Inline[]; href: string };

export interface CardMeta {
  id: string;
  title: string;
  summary: Inline[];
  time: string;
  order?: number;
  difficulty?: Difficulty;
  requires: string[];
  layers: LayerId[];
}

/** A lab as the course shows it; or the lab's errors, as the page would show them. */
export type CourseCard = { key: string; meta: CardMeta; steps: string[] } | { key: string; error: string };

/**
 * What a lab is read against: the views, model answers and graders the topics declare. A card
 * made by another fslab (an instructor's `npx fslab labs index` of another version) may judge a
 * lab otherwise than this page's parser would, so the key names them too.
 */
export function readContext(views: readonly string[], answers: readonly { id: string; params: readonly string[] }[], graders: readonly { id: string; function: string }[]): string {
  const names = [...views.map((v) => `v:${v}`), ...answers.map((a) => `a:${a.id}(${a.params.join(",")})`), ...graders.map((g) => `g:${g.id}=${g.function}`)].sort();
  return hash32(names.join("\n")).toString(36);
}

/** Which text a card was made from, read against what: the page compares it with the lab.md it fetched. */
export const cardKey = (source: string, context: string): string => `${source.length}:${hash32(source).toString(36)}:${context}`;

/** A link's target a card may hold: the web, mail, or a path of this site (no other scheme). */
export const safeHref = (href: string): boolean => /^(https?:|mailto:)/i.test(href) || !/^[^/?#]*:/.test(href);

const isString = (v: unknown): v is string => typeof v === "string";
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

function isInline(v: unknown, depth = 0): v is Inline {
  if (isString(v)) return true;
  if (!v || typeof v !== "object" || Array.isArray(v) || depth > 8) return false;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && isString(o.code)) return true;
  if (keys.length === 1 && ("em" in o || "strong" in o || "del" in o)) return isInlines(o[keys[0]], depth + 1);
  return keys.length === 2 && isString(o.href) && safeHref(o.href) && isInlines(o.a, depth + 1);
}

const isInlines = (v: unknown, depth = 0): v is Inline[] => Array.isArray(v) && v.every((x) => isInline(x, depth));

function isMeta(v: unknown, id: string): v is CardMeta {
  if (!v || typeof v !== "object") return false;
  const m = v as Record<string, unknown>;
  return (
    m.id === id &&
    isString(m.title) &&
    isInlines(m.summary) &&
    isString(m.time) &&
    (m.order === undefined || (Number.isInteger(m.order) && (m.order as number) > 0)) &&
    (m.difficulty === undefined || (DIFFICULTIES as readonly unknown[]).includes(m.difficulty)) &&
    isStrings(m.requires) &&
    isStrings(m.layers) &&
    m.layers.every((l) => LAYER_IDS.includes(l))
  );
}

/**
 * index.json's `cards`, each checked: a card that is not one (a hand-edited index, another
 * version's) is left out, and its lab is parsed in the page instead.
 */
export function readCards(v: unknown): Map<string, CourseCard> {
  const cards = new Map<string, CourseCard>();
  if (!v || typeof v !== "object" || Array.isArray(v)) return cards;
  for (const [id, c] of Object.entries(v as Record<string, unknown>)) {
    if (!c || typeof c !== "object" || !isString((c as { key?: unknown }).key)) continue;
    const card = c as Record<string, unknown>;
    if (isString(card.error) && Object.keys(card).length === 2) cards.set(id, { key: card.key as string, error: card.error });
    else if (isMeta(card.meta, id) && isStrings(card.steps)) cards.set(id, { key: card.key as string, meta: card.meta, steps: card.steps });
  }
  return cards;
}
