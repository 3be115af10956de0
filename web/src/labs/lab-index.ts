// labs/index.json: the labs a site offers, read by the page at run time so that an instructor
// adds a lab by copying its folder beside index.html and running `fslab labs index <dir>`
// (the build writes it too). The ids are the list; `cards` (optional) is what the home page
// shows of each lab, made from its text (course-cards.ts). Each lab.md is still fetched, and
// parsed by the page when no card matches it, so a broken lab shows its own error and never
// hides the others.

export const INDEX_FORMAT = "fslab-labs/1";

export interface LabIndex {
  format: typeof INDEX_FORMAT;
  /** folder names under labs/, each holding a lab.md */
  labs: string[];
  /** what the home page shows of each lab, by id (course-cards.ts reads them, each checked) */
  cards?: unknown;
}

export const LAB_ID = /^[a-z0-9][a-z0-9-]*$/;

export function parseLabIndex(text: string): LabIndex | { error: string } {
  let v: { format?: unknown; labs?: unknown; cards?: unknown } | null;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `labs/index.json is not JSON (${e instanceof Error ? e.message : e})` };
  }
  if (!v || v.format !== INDEX_FORMAT) return { error: `labs/index.json is not an index of format ${INDEX_FORMAT}` };
  if (!Array.isArray(v.labs) || v.labs.some((id: unknown) => typeof id !== "string" || !LAB_ID.test(id)))
    return { error: `labs/index.json: "labs" must be a list of lab folder names (lowercase letters, digits, dashes)` };
  return { format: INDEX_FORMAT, labs: [...new Set<string>(v.labs)], ...(v.cards === undefined ? {} : { cards: v.cards }) };
}

export function labIndex(ids: string[], cards?: Record<string, unknown>): LabIndex {
  const labs = [...ids].filter((id) => LAB_ID.test(id)).sort();
  return { format: INDEX_FORMAT, labs, ...(cards ? { cards: Object.fromEntries(labs.filter((id) => id in cards).map((id) => [id, cards[id]])) } : {}) };
}
