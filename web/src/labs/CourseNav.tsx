// Under a lab: its place in the course and the link to the next lab, from the labs' `order:`
// (course-order.ts), so "Next" leads once through every lab of the site. The other labs are
// read from their course cards in labs/index.json, without fetching their text (course-list.ts
// loadCourseNav: only a lab without a card is fetched and parsed), a few seconds after the page
// opened and when it is idle: the lab's machine and a learner's first command do not wait for
// it (requestIdleCallback alone came 30 ms after the prompt, between two of the emulator's
// slices, in the first command's time).
import { useEffect, useState } from "react";
import { loadCourseNav } from "./course-list";
import { neighbours } from "./course-order";
import type { CardMeta } from "./course-cards";
import type { Lab } from "./lab-format";

/** how long after the page opened the course is read */
const COURSE_AFTER_MS = 3000;

export function CourseNav({ lab }: { lab: Lab }) {
  const [labs, setLabs] = useState<CardMeta[] | null>(null);
  useEffect(() => {
    let live = true;
    let idle = 0;
    const go = () => void loadCourseNav().then((l) => live && setLabs(l.labs.flatMap((e) => ("meta" in e.card ? [e.card.meta] : []))));
    const later = setTimeout(() => {
      idle = typeof requestIdleCallback === "function" ? requestIdleCallback(go, { timeout: 2000 }) : (go(), 0);
    }, COURSE_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(later);
      if (idle && typeof cancelIdleCallback === "function") cancelIdleCallback(idle);
    };
  }, []);
  if (!labs) return null;
  const path = labs.map((meta) => ({ lab: { meta } }));
  const { index, prev, next } = neighbours(path, lab.meta.id);
  if (index < 0) return null; // a preview: not one of the site's labs
  return (
    <nav className="course-nav" aria-label="The course" data-testid="course-nav">
      <p>
        Lab {index + 1} of {labs.length} in the <a href="#/">course</a>.
        {prev && (
          <>
            {" "}Before it: <a href={`#/lab/${prev.lab.meta.id}`}>{prev.lab.meta.title}</a>.
          </>
        )}
      </p>
      {next ? (
        <p>
          Next lab:{" "}
          <a href={`#/lab/${next.lab.meta.id}`} data-testid="next-lab">
            {next.lab.meta.title} →
          </a>
        </p>
      ) : (
        <p>The last lab of the course.</p>
      )}
    </nav>
  );
}
