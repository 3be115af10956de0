// The site's course for the home page: labs/index.json (the labs and their cards), then each
// labs/<id>/lab.md, fetched as before. A lab whose card was made from the text just fetched
// (course-cards.ts) is shown from its card; one without (dropped in or edited after the index was
// written) is parsed here, with the parser loaded only then. The fetches (lab-fetch.ts) are
// shared with the registry (registry.ts), which parses a lab for its page.
import { useEffect, useState } from "react";
import { fetchLabText, readLabIndex } from "./lab-fetch";
import { cardKey, readCards, readContext, type CourseCard } from "./course-cards";
import { ANSWERS, GRADERS, VIEW_IDS } from "../topics";

export interface CourseEntry {
  id: string;
  card: CourseCard;
}

export interface CourseList {
  labs: CourseEntry[];
  /** the index itself could not be read */
  error?: string;
}

let loading: Promise<CourseList> | null = null;

/** The site's labs as cards (read once per page load). */
export function loadCourse(): Promise<CourseList> {
  loading ??= (async () => {
    const index = await readLabIndex();
    if ("error" in index) return { labs: [], error: index.error };
    const cards = readCards(index.cards);
    const context = readContext(VIEW_IDS, ANSWERS, GRADERS);
    return {
      labs: await Promise.all(
        index.labs.map(async (id): Promise<CourseEntry> => {
          let source: string;
          try {
            source = await fetchLabText(`${id}/lab.md`);
          } catch (e) {
            return { id, card: { key: "", error: e instanceof Error ? e.message : String(e) } };
          }
          const card = cards.get(id);
          if (card?.key === cardKey(source, context)) return { id, card };
          try {
            const { parsedCard } = await import("./course-parse");
            return { id, card: parsedCard(id, source, context) };
          } catch (e) {
            // the parser's chunk did not come (a redeploy, offline before the service worker): this lab only
            return { id, card: { key: "", error: `labs/${id}/lab.md could not be read: the page's lab parser did not load (${e instanceof Error ? e.message : e})` } };
          }
        }),
      ),
    };
  })();
  return loading;
}

let navLoading: Promise<CourseList> | null = null;

/**
 * The course as a lab page's navigation reads it: a lab with a well-formed card in
 * labs/index.json is taken from its card without fetching its lab.md, where the home page fetches
 * every lab.md to check its card against it (170 KB of other labs' text on a lab page, for a
 * title and a place in the order). A lab edited since `fslab labs index` ran shows its old title
 * and place here until the index is written again; the home page shows the new ones. A lab
 * without a card (or with an error for one) has the course read as the home page reads it.
 */
export function loadCourseNav(): Promise<CourseList> {
  navLoading ??= (async () => {
    const index = await readLabIndex();
    if ("error" in index) return { labs: [], error: index.error };
    const cards = readCards(index.cards);
    const shown = (id: string) => {
      const card = cards.get(id);
      return card && "meta" in card ? card : null;
    };
    // a lab without a card, or whose card is an error (made by another fslab, perhaps): all of
    // them as the home page reads them
    const parsed = index.labs.every(shown) ? [] : (await loadCourse()).labs;
    return { labs: index.labs.map((id) => parsed.find((e) => e.id === id) ?? { id, card: shown(id)! }) };
  })();
  return navLoading;
}

export function useCourse(): CourseList | null {
  const [list, setList] = useState<CourseList | null>(null);
  useEffect(() => {
    let live = true;
    void loadCourse().then((l) => live && setList(l));
    return () => void (live = false);
  }, []);
  return list;
}
