// The documents' lists that come from the topic manifests (the views a lab may name, the
// playground routes, what can be embedded) and from the labs (docs/labs.md's list, in the
// course's order), between <!-- generated:NAME --> and <!-- /generated:NAME --> markers.
// `fslab readme` (readme.ts) rewrites them; readme-sections.test.ts fails when a document has
// fallen behind.
import type { TopicManifest } from "../../web/src/shared/topic";
import { describeParam } from "../../web/src/shared/params";
import type { Lab } from "../../web/src/labs/lab-format";
import { courseOrder } from "../../web/src/labs/course";

/** A title ends a sentence: a full stop unless it has its own mark. */
const sentence = (s: string) => (/[.?!]$/.test(s) ? s : `${s}.`);

/** A line a list item's continuation must not start with: Markdown would read a new block. */
const BLOCK_START = /^([-+*>#|]|\d+[.)])$/;

/** A list item ("- ...") wrapped at `width` columns, its continuation lines indented by two. */
export function wrapItem(item: string, width = 96): string {
  const lines: string[][] = [[]];
  let len = 0;
  for (const word of item.split(" ")) {
    const line = lines[lines.length - 1];
    if (line.length && len + 1 + word.length > width) {
      // a continuation may not start like a block (a "|" of "ssd | hdd"): take words down with it
      // (all of a continuation line's words if need be, never the item's own "-")
      const next = [word];
      while (BLOCK_START.test(next[0]) && line.length > (lines.length > 1 ? 0 : 1)) next.unshift(line.pop()!);
      if (line.length) lines.push(next);
      else line.push(...next);
      len = 2 + next.join(" ").length;
    } else {
      len += (line.length ? 1 : 0) + word.length;
      line.push(word);
    }
  }
  return lines.map((l, i) => (i ? "  " : "") + l.join(" ")).join("\n");
}

/**
 * docs/labs.md's list of the labs, in the course's order: each lab's id (a link to its lab.md,
 * from docs/), difficulty and time, title and summary, and what it requires.
 */
export function labList(labs: ReadonlyArray<{ lab: Lab }>): string[] {
  return courseOrder(labs).map(({ lab: { meta: m } }) => {
    const about = [m.difficulty, m.time].filter(Boolean).join(", ");
    const requires = m.requires.length ? ` After ${m.requires.map((r) => `\`${r}\``).join(" and ")}.` : "";
    return `- [\`${m.id}\`](../labs/${m.id}/lab.md)${about ? ` (${about})` : ""}: ${sentence(m.title)}${m.summary ? ` ${sentence(m.summary.replace(/\s+/g, " "))}` : ""}${requires}`;
  });
}

export function generatedSections(topics: TopicManifest[], labs: ReadonlyArray<{ lab: Lab }>): Record<string, string> {
  const list = (items: string[]) => items.map((x) => wrapItem(x)).join("\n");
  const views = topics.flatMap((t) => t.views.map((v) => `- \`${v.id}\` (${t.title}): ${v.title}`));
  const playgrounds = topics.flatMap((t) =>
    t.playgrounds.map((p) => {
      const params = Object.entries(p.params).map(([name, s]) => `\`${name}\` ${describeParam(s)}, default ${s.default}`);
      return `- \`#/play/${p.route}\`: ${sentence(p.title)} ${sentence(p.blurb)} Link parameters: ${params.join("; ") || "none"}.`;
    }),
  );
  const embedPlaygrounds = topics.flatMap((t) =>
    t.playgrounds.map((p) => {
      const params = Object.entries(p.params).map(([name, s]) => `\`${name}\` ${describeParam(s)}, default ${s.default}`);
      const example = Object.entries(p.params).slice(0, 2).map(([name, s]) => `${name}=${encodeURIComponent(String(s.default))}`).join("&");
      return `- \`#/embed/${p.route}${example ? `?${example}` : ""}\`: ${sentence(p.title)} Parameters: ${params.join("; ") || "none"}.`;
    }),
  );
  const embedViews = topics.flatMap((t) =>
    t.views.map((v) => {
      const params = Object.entries(v.params).map(([name, s]) => `\`${name}\` ${describeParam(s)}, default ${s.default}`);
      return `- \`#/embed/view/${v.id}\` (${t.title}): ${sentence(v.title)}${params.length ? ` Parameters: ${params.join("; ")}.` : ""}`;
    }),
  );
  return { labs: list(labList(labs)), views: list(views), playgrounds: list(playgrounds), "embed-playgrounds": list(embedPlaygrounds), "embed-views": list(embedViews) };
}

/** Which generated sections each document carries; every section is in one of them. */
export const GENERATED_IN: Record<string, string[]> = {
  "docs/labs.md": ["labs", "playgrounds"],
  "docs/authoring.md": ["views"],
  "docs/embedding.md": ["embed-playgrounds", "embed-views"],
};

/** The document with each generated section replaced; throws if a section's markers are missing. */
export function rewriteReadme(readme: string, sections: Record<string, string>, only?: string[], file = "README.md"): string {
  let out = readme;
  for (const [name, body] of Object.entries(sections)) {
    if (only && !only.includes(name)) continue;
    const re = new RegExp(`(<!-- generated:${name} -->\\n)[^]*?(<!-- /generated:${name} -->)`);
    if (!re.test(out)) throw new Error(`${file} has no <!-- generated:${name} --> ... <!-- /generated:${name} --> section`);
    out = out.replace(re, (_m, open: string, close: string) => `${open}${body}\n${close}`);
  }
  return out;
}
