// The home page's course: the storage stack drawn as bands, from the system call down to the
// device, each lab and playground at its layer, the suggested order as arrows from lab to lab,
// and the learner's own progress (IndexedDB) on each lab's card; then the same as a table,
// for screen readers and the keyboard. Pointing at a card or tabbing to it shows its
// prerequisites, the layers it works at and the learner's progress in words below the picture.
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { CardMeta, Inline } from "../labs/course-cards";
import type { LabProgress } from "../labs/progress";
import { allProgress } from "../labs/progress";
import { courseOrder } from "../labs/course-order";
import { layerName } from "../labs/stack";
import type { PlaygroundSpec } from "../shared/topic";
import { courseLayout, type CourseItem } from "./course-layout";

export interface LabStanding {
  passed: number;
  steps: number;
  state: "done" | "started" | "new";
}

/** A lab as the course shows it: its card (course-cards.ts). */
export interface CourseLab {
  meta: CardMeta;
  /** its steps' titles */
  steps: string[];
}

/** How far the learner got in a lab, counted on the lab's steps as they are now (by title). */
export function standing(lab: CourseLab, p: LabProgress | undefined): LabStanding {
  const steps = lab.steps.length;
  if (!p) return { passed: 0, steps, state: "new" };
  const passedTitles = new Set(p.steps.filter((s) => s.passedAt).map((s) => s.title));
  const passed = lab.steps.filter((title) => passedTitles.has(title)).length;
  const touched = p.steps.some((s) => s.passedAt || s.skippedAt || s.attempts || s.openMs > 0);
  return { passed, steps, state: passed === steps && steps > 0 ? "done" : touched || passed ? "started" : "new" };
}

export const standingText = (s: LabStanding) =>
  s.state === "done" ? `done: all ${s.steps} steps passed` : s.state === "started" ? `${s.passed} of ${s.steps} steps passed` : "not started";

/** The learner's progress in every lab, read from IndexedDB when the page opens. */
export function useAllProgress(): Map<string, LabProgress> | null {
  const [all, setAll] = useState<Map<string, LabProgress> | null>(null);
  useEffect(() => {
    let live = true;
    void allProgress().then((ps) => live && setAll(new Map(ps.map((p) => [p.lab, p]))));
    return () => void (live = false);
  }, []);
  return all;
}

function useWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.clientWidth));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

const DIFFICULTY_DOTS: Record<string, string> = { introductory: "●○○", intermediate: "●●○", advanced: "●●●" };

/** A card's summary: React elements, never HTML (the card was parsed where it was made). */
function InlineText({ nodes }: { nodes: readonly Inline[] }) {
  return (
    <>
      {nodes.map((n, i) =>
        typeof n === "string" ? (
          n
        ) : "code" in n ? (
          <code key={i}>{n.code}</code>
        ) : "em" in n ? (
          <em key={i}><InlineText nodes={n.em} /></em>
        ) : "strong" in n ? (
          <strong key={i}><InlineText nodes={n.strong} /></strong>
        ) : "del" in n ? (
          <del key={i}><InlineText nodes={n.del} /></del>
        ) : /^https?:/i.test(n.href) ? (
          <a key={i} href={n.href} target="_blank" rel="noopener noreferrer"><InlineText nodes={n.a} /></a>
        ) : (
          <a key={i} href={n.href}><InlineText nodes={n.a} /></a>
        ),
      )}
    </>
  );
}

export function Course({ labs, playgrounds }: { labs: CourseLab[]; playgrounds: PlaygroundSpec[] }) {
  const progress = useAllProgress();
  const path = useMemo(() => courseOrder(labs.map((lab) => ({ lab }))).map((l) => l.lab), [labs]);
  const byId = useMemo(() => new Map(path.map((l) => [l.meta.id, l])), [path]);
  const items: CourseItem[] = useMemo(
    () => [
      ...path.filter((l) => l.meta.layers.length).map((l, i) => ({
        kind: "lab" as const,
        id: l.meta.id,
        href: `#/lab/${l.meta.id}`,
        title: l.meta.title,
        layer: l.meta.layers[0],
        reach: l.meta.layers.slice(1),
        n: path.indexOf(l) + 1 || i + 1,
      })),
      ...playgrounds.map((p) => ({ kind: "play" as const, id: p.route, href: `#/play/${p.route}`, title: p.title, layer: p.layer, reach: [] })),
    ],
    [path, playgrounds],
  );
  const [box, width] = useWidth();
  const layout = useMemo(() => (width ? courseLayout(width, items) : null), [width, items]);
  const [active, setActive] = useState<string | null>(null);
  const detailId = useId();
  const stand = (l: CourseLab) => standing(l, progress?.get(l.meta.id));
  const unplaced = path.filter((l) => !l.meta.layers.length);

  const describe = (id: string | null) => {
    if (!id) return "Point at a lab or a playground, or tab to one, to see where it works, what to do first and your progress.";
    const lab = byId.get(id);
    if (lab) {
      const m = lab.meta;
      const n = path.indexOf(lab) + 1;
      const req = m.requires.length ? `do first: ${m.requires.map((r) => byId.get(r)?.meta.title ?? r).join("; ")}` : "nothing to do first";
      const next = path[n] ? ` Next: ${path[n].meta.title}.` : " The last lab of the course.";
      return `${n}. ${m.title}. Works at ${m.layers.map(layerName).join(", ")}; ${m.difficulty ?? "difficulty not stated"}; ${m.time}; ${req}. Your progress: ${progress ? standingText(stand(lab)) : "reading…"}.${next}`;
    }
    const p = playgrounds.find((x) => x.route === id);
    return p ? `Playground at ${layerName(p.layer)}: ${p.title}. ${p.blurb}` : "";
  };
  const activeLab = active ? byId.get(active) : undefined;
  const related = new Set(activeLab?.meta.requires ?? []);
  const reached = new Set(activeLab?.meta.layers ?? (active ? [playgrounds.find((p) => p.route === active)?.layer] : []));

  return (
    <section className="course" aria-labelledby="course-title">
      <h1 id="course-title">The course</h1>
      <p>
        {path.length} {path.length === 1 ? "lab" : "labs"} through Linux's storage stack, from the system call down to the device, in a suggested order
        {path[0] ? <>, starting with <a href={`#/lab/${path[0].meta.id}`}>{path[0].meta.title}</a></> : ""}.
        The numbers (and, on a wide screen, the arrows) give the order; a small numbered circle in another layer marks where that lab works too; the bar
        under a lab is your progress, read from this browser. Each lab's card is a link: point at it or tab to it for its details.
      </p>
      <div className="course-map" ref={box} data-testid="course-map" data-wide={layout?.wide ? "1" : "0"}>
        {layout && (
          <svg
            width={layout.width}
            height={layout.height}
            viewBox={`0 0 ${layout.width} ${layout.height}`}
            role="group"
            aria-label="The storage stack, top to bottom, with each lab and playground at its layer (the table below lists the same)"
            aria-describedby={detailId}
          >
            <defs>
              <marker id="course-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" fill="#14213d" />
              </marker>
            </defs>
            {layout.bands.map((b, i) => (
              <g key={b.layer} className={`course-band${reached.has(b.layer) ? " reached" : ""}`} data-layer={b.layer} aria-hidden="true">
                <rect x={b.x} y={b.y} width={b.w} height={b.h} className={i % 2 ? "odd" : "even"} />
                <text x={b.label.x} y={b.label.y} className="band-name">
                  {b.name}
                </text>
              </g>
            ))}
            <g aria-hidden="true">
              {layout.arrows.map((a) => (
                <path key={`${a.from}-${a.to}`} d={a.d} className="course-path" markerEnd="url(#course-arrow)" />
              ))}
            </g>
            <g aria-hidden="true">
              {layout.markers.map((m) => (
                <g key={`${m.layer}-${m.id}`} className={`course-marker${active === m.id ? " active" : ""}`}>
                  <circle cx={m.x} cy={m.y} r={10} />
                  <text x={m.x} y={m.y + 4} textAnchor="middle">
                    {m.n}
                  </text>
                </g>
              ))}
            </g>
            {/* in the course's order, then the playgrounds: the order Tab takes */}
            {[...layout.cards].sort((a, b) => (a.item.n ?? 1e9) - (b.item.n ?? 1e9)).map((c) => {
              const lab = c.item.kind === "lab" ? byId.get(c.item.id)! : undefined;
              const s = lab && stand(lab);
              const label = lab ? `${c.item.n}. ${lab.meta.title}: ${lab.meta.difficulty ?? ""}, ${lab.meta.time}, ${progress ? standingText(s!) : ""}` : `Playground: ${c.item.title}`;
              const cls = ["course-card", c.item.kind, s?.state ?? "", c.item.kind === "lab" && related.has(c.item.id) ? "required" : "", active === c.item.id ? "active" : ""].join(" ");
              return (
                <a
                  key={`${c.item.kind}-${c.item.id}`}
                  href={c.item.href}
                  className={cls}
                  aria-describedby={`card-desc-${c.item.kind}-${c.item.id}`}
                  data-card={c.item.id}
                  data-kind={c.item.kind}
                  onMouseEnter={() => setActive(c.item.id)}
                  onMouseLeave={() => setActive((a) => (a === c.item.id ? null : a))}
                  onFocus={() => setActive(c.item.id)}
                  onBlur={() => setActive((a) => (a === c.item.id ? null : a))}
                >
                  {/* its name is what it shows (WCAG 2.5.3: a spoken command names what is seen); the whole title and the standing are its description */}
                  <desc id={`card-desc-${c.item.kind}-${c.item.id}`}>{label}</desc>
                  <rect x={c.x} y={c.y} width={c.w} height={c.h} rx={6} className="card-box" />
                  {lab && s ? (
                    <>
                      <circle cx={c.x + 17} cy={c.y + 17} r={11} className="card-n" />
                      <text x={c.x + 17} y={c.y + 21.5} textAnchor="middle" className="card-n-text">
                        {c.item.n}
                      </text>
                      <text x={c.x + 34} y={c.y + 21.5} className="card-meta">
                        <tspan aria-hidden="true">{DIFFICULTY_DOTS[lab.meta.difficulty ?? ""] ?? ""} </tspan>
                        {lab.meta.time}
                        {/* the bar below says how far (a card is MIN_COL px wide at the least) */}
                        {s.state === "done" ? " ✓" : ""}
                      </text>
                      {c.lines.map((line, k) => (
                        <text key={k} x={c.x + 8} y={c.y + 42 + k * 15} className="card-title">
                          {line}
                        </text>
                      ))}
                      {/* the progress bar: passed steps of the lab's steps */}
                      <rect x={c.x + 1} y={c.y + c.h - 5} width={c.w - 2} height={4} className="card-bar" />
                      <rect x={c.x + 1} y={c.y + c.h - 5} width={((c.w - 2) * s.passed) / Math.max(1, s.steps)} height={4} className="card-bar-fill" />
                    </>
                  ) : (
                    <>
                      <text x={c.x + 8} y={c.y + 16} className="card-meta">
                        Playground
                      </text>
                      {c.lines.map((line, k) => (
                        <text key={k} x={c.x + 8} y={c.y + 32 + k * 14} className="card-title">
                          {line}
                        </text>
                      ))}
                    </>
                  )}
                </a>
              );
            })}
          </svg>
        )}
      </div>
      <p id={detailId} className="course-detail" aria-live="polite" data-testid="course-detail">
        {describe(active)}
      </p>
      {unplaced.length > 0 && (
        <p className="muted">
          Not drawn (their <code>lab.md</code> names no layer): {unplaced.map((l) => l.meta.title).join("; ")}.
        </p>
      )}
      <div className="course-table-box" tabIndex={0} role="region" aria-label="The course as a table">
        <table className="course-table" data-testid="course-table">
          <caption>The labs in the suggested order, with the layers each works at, what to do first, and your progress</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Lab</th>
              <th scope="col">Layers</th>
              <th scope="col">Do first</th>
              <th scope="col">Difficulty</th>
              <th scope="col">Time</th>
              <th scope="col">Your progress</th>
            </tr>
          </thead>
          <tbody>
            {path.map((l, i) => {
              const s = stand(l);
              return (
                <tr key={l.meta.id} data-lab={l.meta.id} className={s.state}>
                  <td>{i + 1}</td>
                  <th scope="row">
                    <a href={`#/lab/${l.meta.id}`}>{l.meta.title}</a>
                    {l.meta.summary.length > 0 && <span className="course-summary"><InlineText nodes={l.meta.summary} /></span>}
                  </th>
                  <td>{l.meta.layers.map(layerName).join(", ") || "—"}</td>
                  <td>
                    {l.meta.requires.length
                      ? l.meta.requires.map((r, k) => (
                          <span key={r}>
                            {k > 0 && ", "}
                            {byId.has(r) ? <a href={`#/lab/${r}`}>{byId.get(r)!.meta.title.split(":")[0]}</a> : `${r} (not on this site)`}
                          </span>
                        ))
                      : "nothing"}
                  </td>
                  <td>{l.meta.difficulty ?? "—"}</td>
                  <td>{l.meta.time}</td>
                  <td data-testid={`progress-${l.meta.id}`}>{progress ? standingText(s) : "…"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
