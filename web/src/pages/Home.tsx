import { setPreview, useLabs } from "../labs/registry";
import { renderInlineMarkdown } from "../labs/markdown";
import { LabErrors } from "../labs/LabErrors";
import { PLAYGROUNDS } from "../topics";

export function Home() {
  const list = useLabs();
  const open = async (file: File | undefined) => {
    if (!file) return;
    setPreview(await file.text(), file.name);
    location.hash = "#/lab/preview";
  };
  return (
    <section className="home">
      <h1>Labs</h1>
      {!list && <p className="muted">Loading the labs…</p>}
      {list?.error && (
        <p className="error" role="alert">
          {list.error}
        </p>
      )}
      <ul className="lab-list">
        {list?.labs.map((e) => (
          <li key={e.id} className="lab-card" data-lab={e.id}>
            {e.lab ? (
              <>
                <h2><a href={`#/lab/${e.id}`}>{e.lab.meta.title}</a></h2>
                <p dangerouslySetInnerHTML={{ __html: renderInlineMarkdown(e.lab.meta.summary) }} />
                <p className="muted">{[e.lab.meta.time, e.lab.meta.topics.join(", ")].filter(Boolean).join(" · ")}</p>
              </>
            ) : (
              <LabErrors intro={`Lab ${e.id} cannot be shown:`} error={e.error} />
            )}
          </li>
        ))}
      </ul>
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
          </li>
        ))}
      </ul>
    </section>
  );
}
