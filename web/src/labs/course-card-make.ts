// A lab's course card (course-cards.ts) made from its parsed text: by the site's build and by
// `fslab labs index` for every lab, and by the page for a lab whose card is missing or stale.
import { Lexer, type Token } from "marked";
import type { Lab } from "./lab-format";
import { cardKey, safeHref, type CourseCard, type Inline } from "./course-cards";

/**
 * A line of inline Markdown as marked's lexer reads it, kept to what a card draws: text, code,
 * emphasis, struck text and links. Raw HTML tags are dropped (their text stays, as the
 * sanitizer keeps it), an image is its alt text, a link to another scheme is its text.
 */
export function inlineOf(markdown: string): Inline[] {
  return inlines(Lexer.lexInline(markdown));
}

function inlines(tokens: readonly Token[]): Inline[] {
  const out: Inline[] = [];
  const text = (s: string) => {
    if (!s) return;
    const last = out.length - 1;
    if (typeof out[last] === "string") out[last] += s;
    else out.push(s);
  };
  for (const t of tokens) {
    switch (t.type) {
      case "codespan":
        out.push({ code: t.text });
        break;
      case "em":
      case "strong":
      case "del":
        out.push({ [t.type]: inlines(t.tokens ?? []) } as Inline);
        break;
      case "link": {
        const inner = inlines(t.tokens ?? []);
        if (safeHref(t.href)) out.push({ a: inner, href: t.href });
        else for (const x of inner) typeof x === "string" ? text(x) : out.push(x);
        break;
      }
      case "image":
        text(t.text);
        break;
      case "br":
        text(" ");
        break;
      case "html":
        break;
      default:
        // text and escapes; a text token with inner tokens is read through them
        if ("tokens" in t && t.tokens?.length) for (const x of inlines(t.tokens)) typeof x === "string" ? text(x) : out.push(x);
        else text("text" in t && typeof t.text === "string" ? t.text : t.raw);
    }
  }
  return out;
}

/** The card of a lab's text, read against `context` (readContext): its meta and steps' titles, or the error the page would show. */
export function cardOf(source: string, parsed: { lab?: Lab; error?: string }, context: string): CourseCard {
  const key = cardKey(source, context);
  if (!parsed.lab) return { key, error: parsed.error ?? "the lab could not be read" };
  const m = parsed.lab.meta;
  return {
    key,
    meta: {
      id: m.id,
      title: m.title,
      summary: inlineOf(m.summary),
      time: m.time,
      ...(m.order === undefined ? {} : { order: m.order }),
      ...(m.difficulty === undefined ? {} : { difficulty: m.difficulty }),
      requires: m.requires,
      layers: m.layers,
    },
    steps: parsed.lab.steps.map((s) => s.title),
  };
}
