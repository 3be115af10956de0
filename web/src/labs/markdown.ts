// Lab text to HTML a learner's page can hold: marked renders the Markdown, DOMPurify then
// removes everything that could run (script and style elements, event-handler attributes,
// javascript: and other script URLs, frames, forms), as OWASP advises for untrusted
// Markdown. A lab file is text from whoever wrote it; nothing in it may run in the page.
// Images and links to other sites stay; links open in a new tab without an opener.
import { marked } from "marked";
import DOMPurify from "dompurify";

let hooked = false;

function hook() {
  if (hooked) return;
  // after sanitizing: a link that leaves the page opens a new tab that cannot reach back
  DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A" && /^https?:/i.test(node.getAttribute("href") ?? "")) {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    }
  });
  hooked = true;
}

// A step's text is rendered again at each render of its page (the machine's status, a verdict, a
// key typed in an answer), and each rendering parses it and sanitizes it in a DOM of its own
// (4-5 ms for a step on a 2-core machine): the last texts' HTML is kept. Text in, HTML out; the
// hook above is set once, so the same text always gives the same HTML.
const KEPT = 256;
const rendered = new Map<string, string>();

function kept(key: string, render: () => string): string {
  let html = rendered.get(key);
  if (html === undefined) {
    html = render();
    if (rendered.size >= KEPT) rendered.delete(rendered.keys().next().value!); // the oldest
    rendered.set(key, html);
  }
  return html;
}

export function renderMarkdown(text: string): string {
  return kept(`b${text}`, () => {
    hook();
    const html = marked.parse(text, { async: false }) as string;
    return DOMPurify.sanitize(html, {
      USE_PROFILES: { html: true },
      FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
      ADD_ATTR: ["target"],
    });
  });
}

/** What inline Markdown may make: text-level elements only (a question sits in a label, a summary in a card). */
const INLINE_TAGS = ["a", "em", "strong", "code", "del", "s", "sub", "sup", "kbd", "br", "span", "abbr", "mark", "i", "b", "small", "q", "var", "samp"];

/**
 * One line of lab text (a predict block's question, a lab's summary) as inline Markdown:
 * `code`, *emphasis*, links; sanitized as renderMarkdown's, and kept to text-level elements.
 */
export function renderInlineMarkdown(text: string): string {
  return kept(`i${text}`, () => {
    hook();
    const html = marked.parseInline(text, { async: false }) as string;
    return DOMPurify.sanitize(html, { ALLOWED_TAGS: INLINE_TAGS, ALLOWED_ATTR: ["href", "title", "target", "rel"] });
  });
}
