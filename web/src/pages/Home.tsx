import { useCourse } from "../labs/course-list";
import { LabErrors } from "../labs/LabErrors";
import { layerName } from "../labs/stack";
import { PLAYGROUNDS } from "../topics";
import { Course } from "./Course";

export function Home() {
  const list = useCourse();
  const open = async (file: File | undefined) => {
    if (!file) return;
    const { setPreview } = await import("../labs/registry"); // the parser, for an author's file only
    setPreview(await file.text(), file.name);
    location.hash = "#/lab/preview";
  };
  const labs = list?.labs.flatMap(({ card }) => ("meta" in card ? [card] : [])) ?? [];
  const broken = list?.labs.flatMap(({ id, card }) => ("error" in card ? [{ id, error: card.error }] : [])) ?? [];
  return (
    <section className="home">
      {!list && <p className="muted">Loading the labs…</p>}
      {list?.error && (
        <p className="error" role="alert">
          {list.error}
        </p>
      )}
      {list && !list.error && <Course labs={labs} playgrounds={PLAYGROUNDS} />}
      {broken.length > 0 && (
        <ul className="lab-list">
          {broken.map((e) => (
            <li key={e.id} className="lab-card" data-lab={e.id}>
              <LabErrors intro={`Lab ${e.id} cannot be shown:`} error={e.error} />
            </li>
          ))}
        </ul>
      )}
      <p>
        <label>
          Writing a lab? Preview a <code>lab.md</code> from your disk:{" "}
          <input type="file" accept=".md,text/markdown,text/plain" data-testid="preview-file" onChange={(e) => void open(e.target.files?.[0])} />
        </label>
      </p>
      <h1>Playgrounds</h1>
      <ul className="lab-list">
        {PLAYGROUNDS.map((p) => (
          <li key={p.route} className="lab-card">
            <h2><a href={`#/play/${p.route}`}>{p.title}</a></h2>
            <p>{p.blurb}</p>
            <p className="muted">Layer: {layerName(p.layer)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
