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
  return { views: views.join("\n"), playgrounds: playgrounds.join("\n") };
}

/** The README with each generated section replaced; throws if a section's markers are missing. */
export function rewriteReadme(readme: string, sections: Record<string, string>): string {
  let out = readme;
  for (const [name, body] of Object.entries(sections)) {
    const re = new RegExp(`(<!-- generated:${name} -->\\n)[^]*?(<!-- /generated:${name} -->)`);
    if (!re.test(out)) throw new Error(`README.md has no <!-- generated:${name} --> ... <!-- /generated:${name} --> section`);
    out = out.replace(re, (_m, open: string, close: string) => `${open}${body}\n${close}`);
  }
  return out;
}
