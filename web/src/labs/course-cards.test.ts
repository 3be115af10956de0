// The home page's cards: made from a lab's text as the page parses it, read back only when each
// part is what a card may hold, and drawn from data that cannot carry HTML or a script link.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cardKey, readCards, readContext, safeHref, type CourseCard, type Inline } from "./course-cards";
import { ANSWERS, GRADERS, VIEW_IDS } from "../topics";
import { cardOf, inlineOf } from "./course-card-make";
import { entryOf } from "./registry";

const LABS = join(__dirname, "../../../labs");
const ids = readdirSync(LABS).filter((d) => existsSync(join(LABS, d, "lab.md")));
/** what this build reads a lab against */
const CTX = readContext(VIEW_IDS, ANSWERS, GRADERS);

/** every href a card's inline text holds */
const hrefs = (nodes: readonly Inline[]): string[] =>
  nodes.flatMap((n) => (typeof n === "string" || "code" in n ? [] : "a" in n ? [n.href, ...hrefs(n.a)] : hrefs("em" in n ? n.em : "strong" in n ? n.strong : n.del)));

describe("a lab's card", () => {
  it("holds what the page's own parse of every shipped lab gives, and reads back as it was written", () => {
    const written: Record<string, CourseCard> = {};
    for (const id of ids) {
      const source = readFileSync(join(LABS, id, "lab.md"), "utf8");
      const entry = entryOf(id, source, `labs/${id}/lab.md`, id);
      const card = cardOf(source, entry, CTX);
      if (!("meta" in card)) throw new Error(`${id}: ${card.error}`);
      expect(card.meta.title).toBe(entry.lab!.meta.title);
      expect(card.steps).toEqual(entry.lab!.steps.map((s) => s.title));
      expect(card.meta.layers).toEqual(entry.lab!.meta.layers);
      expect(card.key).toBe(cardKey(source, CTX));
      written[id] = card;
    }
    expect(readCards(JSON.parse(JSON.stringify(written)))).toEqual(new Map(Object.entries(written)));
  });

  it("keeps a broken lab's error, as the page shows it", () => {
    const source = "---\ntitle: Broken\ncolour: blue\n---\n## S\ntext\n";
    const card = cardOf(source, entryOf("broken", source, "labs/broken/lab.md", "broken"), CTX);
    expect(card).toEqual({ key: cardKey(source, CTX), error: expect.stringMatching(/labs\/broken\/lab\.md:3: unknown frontmatter key "colour"/) });
    expect(readCards({ broken: card }).get("broken")).toEqual(card);
  });

  it("tells one text from another, and one fslab's reading from another's", () => {
    const source = readFileSync(join(LABS, ids[0], "lab.md"), "utf8");
    expect(cardKey(source.replace("a", "b"), CTX)).not.toBe(cardKey(source, CTX));
    expect(cardKey(source + " ", CTX)).not.toBe(cardKey(source, CTX));
    // a card made by an fslab with one view, answer or grader more or less (another version's labs index)
    for (const other of [readContext([...VIEW_IDS, "new-view"], ANSWERS, GRADERS), readContext(VIEW_IDS, ANSWERS.slice(1), GRADERS), readContext(VIEW_IDS, ANSWERS, [...GRADERS, { id: "x.y", function: "f" }])])
      expect(cardKey(source, other)).not.toBe(cardKey(source, CTX));
    // the order the topics list them in is not a difference
    expect(readContext([...VIEW_IDS].reverse(), [...ANSWERS].reverse(), GRADERS)).toBe(CTX);
  });
});

describe("a summary's inline Markdown", () => {
  it("keeps code, emphasis, struck text and links; drops raw HTML and script links", () => {
    expect(inlineOf("Delete with `rm -f` & see *why* **now _here_**, ~~old~~ [the patch](https://lore.kernel.org/x?a=1&b) a\\*b")).toEqual([
      "Delete with ",
      { code: "rm -f" },
      " & see ",
      { em: ["why"] },
      " ",
      { strong: ["now ", { em: ["here"] }] },
      ", ",
      { del: ["old"] },
      " ",
      { a: ["the patch"], href: "https://lore.kernel.org/x?a=1&b" },
      " a*b",
    ]);
    expect(inlineOf("<img src=x onerror=alert(1)>x<sub>2</sub> [j](javascript:alert(1)) ![alt](y.png)")).toEqual(["x2 j alt"]);
    expect(inlineOf("[here](#/lab/write-path) and [there](../docs/a.md)")).toEqual([{ a: ["here"], href: "#/lab/write-path" }, " and ", { a: ["there"], href: "../docs/a.md" }]);
  });

  it("a link target: the web, mail and this site's paths, no other scheme", () => {
    for (const ok of ["https://kernel.org/", "http://x", "mailto:a@b", "#/lab/x", "docs/a.md", "/x", "?q=1", "a/b:c"]) expect(safeHref(ok)).toBe(true);
    for (const bad of ["javascript:alert(1)", "JavaScript:x", "data:text/html,x", "vbscript:x", " javascript:x"]) expect(safeHref(bad)).toBe(false);
  });
});

describe("index.json's cards, read back", () => {
  const good = { key: "1:a", meta: { id: "a", title: "A", summary: ["s"], time: "5 min", requires: [], layers: ["filesystem"] }, steps: ["one"] };

  it("leaves out a card that is not one, and keeps the others", () => {
    const bad = [
      null,
      "x",
      { ...good, key: 1 },
      { ...good, meta: { ...good.meta, id: "b" } }, // another lab's
      { ...good, meta: { ...good.meta, layers: ["moon"] } },
      { ...good, meta: { ...good.meta, difficulty: "easy" } },
      { ...good, meta: { ...good.meta, order: 0 } },
      { ...good, meta: { ...good.meta, summary: [{ a: ["x"], href: "javascript:alert(1)" }] } },
      { ...good, meta: { ...good.meta, summary: [{ html: "<img onerror=x>" }] } },
      { ...good, meta: { ...good.meta, summary: [{ code: "x", em: [] }] } },
      { ...good, steps: [1] },
      { key: "k", error: "e", meta: good.meta },
    ];
    for (const c of bad) expect(readCards({ a: c }).size, JSON.stringify(c)).toBe(0);
    expect(readCards({ a: good, z: bad[3] })).toEqual(new Map([["a", good]]));
    for (const v of [null, undefined, [], "cards", 3]) expect(readCards(v).size).toBe(0);
  });

  it("never throws, and what it keeps holds no link to another scheme (any JSON)", () => {
    const inline: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, fc.string(), fc.record({ code: fc.string() }), fc.record({ em: fc.array(tie("node")) }), fc.record({ a: fc.array(tie("node")), href: fc.oneof(fc.webUrl(), fc.constantFrom("javascript:x", "data:x", "#/a", "x.md")) }), fc.anything()),
    })).node;
    const card = fc.record({ key: fc.oneof(fc.string(), fc.anything()), meta: fc.oneof(fc.record({ id: fc.constant("a"), title: fc.string(), summary: fc.array(inline), time: fc.string(), requires: fc.array(fc.string()), layers: fc.constant(["device"]) }), fc.anything()), steps: fc.oneof(fc.array(fc.string()), fc.anything()) }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("a", "b"), fc.oneof(card, fc.anything())), (v) => {
        for (const c of readCards(v).values()) if ("meta" in c) for (const h of hrefs(c.meta.summary)) expect(safeHref(h)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
