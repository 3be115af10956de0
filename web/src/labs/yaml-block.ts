// A lab file's YAML (its front matter and its predict, question and expect blocks), read so
// that nothing in it is dropped without a word: an error, and a warning too (a tag the YAML
// library does not know, `!x`, whose value it would take as plain text), is the author's error
// at its line, never a message on the console that a page or a CLI user does not see.
import { LineCounter, parseDocument, type Document } from "yaml";

export type YamlRead = { doc: Document.Parsed; lineCounter: LineCounter } | { error: string; line: number };

/** Parse a block's YAML; the first error or warning, with its line inside the block (1-based). */
export function readYaml(body: string): YamlRead {
  const lineCounter = new LineCounter();
  // logLevel "silent": the library's own warnings go to the author below, not to the console
  const doc = parseDocument(body, { lineCounter, logLevel: "silent" });
  const e = doc.errors[0] ?? doc.warnings[0];
  if (e) return { error: `${doc.errors.length ? "not valid YAML" : "YAML the lab format does not take"}: ${e.message.split("\n")[0]}`, line: e.linePos?.[0]?.line ?? 1 };
  return { doc, lineCounter };
}
