// The README's lists that come from the topic manifests (the views a lab may name, the
// playground routes), between <!-- generated:NAME --> and <!-- /generated:NAME --> markers.
// `fslab readme` rewrites them; readme.test.ts fails when the README has fallen behind.
import type { TopicManifest } from "../shared/topic";
import { describeParam } from "../shared/params";

export function generatedSections(topics: TopicManifest[]): Record<string, string> {
  const views = topics.flatMap((t) => t.views.map((v) => `- \`${v.id}\` (${t.title}): ${v.title}`));
  const playgrounds = topics.flatMap((t) =>
    t.playgrounds.map((p) => {
      const params = Object.entries(p.params).map(([name, s]) => `\`${name}\` ${describeParam(s)}, default ${s.default}`);
      return `- \`#/play/${p.route}\`: ${p.title}. Link parameters: ${params.join("; ") || "none"}.`;
    }),
  );
  const embedPlaygrounds = topics.flatMap((t) =>
    t.playgrounds.map((p) => {
      const params = Object.entries(p.params).map(([name, s]) => `\`${name}\` ${describeParam(s)}, default ${s.default}`);
      const example = Object.entries(p.params).slice(0, 2).map(([name, s]) => `${name}=${encodeURIComponent(String(s.default))}`).join("&");
      return `- \`#/embed/${p.route}${example ? `?${example}` : ""}\`: ${p.title}. Parameters: ${params.join("; ") || "none"}.`;
    }),
  );
  const embedViews = topics.flatMap((t) =>
    t.views.map((v) => {
      const params = Object.entries(v.params).map(([name, s]) => `\`${name}\` ${describeParam(s)}, default ${s.default}`);
      return `- \`#/embed/view/${v.id}\` (${t.title}): ${v.title}.${params.length ? ` Parameters: ${params.join("; ")}.` : ""}`;
    }),
  );
  return { views: views.join("\n"), playgrounds: playgrounds.join("\n"), "embed-playgrounds": embedPlaygrounds.join("\n"), "embed-views": embedViews.join("\n") };
}

/** Which generated sections each document carries. */
export const GENERATED_IN: Record<string, string[]> = {
  "README.md": ["views", "playgrounds"],
  "docs/embedding.md": ["embed-playgrounds", "embed-views"],
};

/** The README with each generated section replaced; throws if a section's markers are missing. */
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
