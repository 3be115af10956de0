import { LABS } from "../labs/registry";
import { PLAYGROUNDS } from "../topics";

export function Home() {
  return (
    <section className="home">
      <h1>Labs</h1>
      <ul className="lab-list">
        {LABS.map((e) => (
          <li key={e.id} className="lab-card">
            {e.lab ? (
              <>
                <h2><a href={`#/lab/${e.id}`}>{e.lab.meta.title}</a></h2>
                <p>{e.lab.meta.summary}</p>
                <p className="muted">{e.lab.meta.time} · {e.lab.meta.topics.join(", ")}</p>
              </>
            ) : (
              <p className="error">Lab {e.id} cannot be shown: {e.error}</p>
            )}
          </li>
        ))}
      </ul>
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
