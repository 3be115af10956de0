// Under a lab: its place in the course and the link to the next lab, from the labs' `order:`
// (course.ts), so "Next" leads once through every lab of the site. The other labs are read
// when the page is idle: the lab's machine does not wait for them.
import { useEffect, useState } from "react";
import { loadLabs } from "./registry";
import { neighbours } from "./course";
import type { Lab } from "./lab-format";

export function CourseNav({ lab }: { lab: Lab }) {
  const [labs, setLabs] = useState<Lab[] | null>(null);
  useEffect(() => {
    let live = true;
    const go = () => void loadLabs().then((l) => live && setLabs(l.labs.flatMap((e) => (e.lab ? [e.lab] : []))));
    const idle = typeof requestIdleCallback === "function" ? requestIdleCallback(go, { timeout: 2000 }) : setTimeout(go, 500);
    return () => {
      live = false;
      (typeof cancelIdleCallback === "function" ? cancelIdleCallback : clearTimeout)(idle as number);
    };
  }, []);
  if (!labs) return null;
  const path = labs.map((l) => ({ lab: l }));
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
