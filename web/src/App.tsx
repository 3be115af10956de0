// Hash routes, so the built site works from any static host without rewrite rules:
//   #/                the labs and the playgrounds (cards from the topic manifests)
//   #/lab/<id>        one lab: its steps, the VM's terminal, its views
//   #/play/<route>?.. a playground a topic manifest declares, its parameters in the query
//   #/bench/<route>   a benchmark page a topic declares (npm run bench opens it in Chromium)
//   #/embed/...       one playground, view or lab for an iframe, without the header (embed/)
// Pages come from the manifests (topics/index.ts) and load lazily, each its own chunk.
import { Suspense, lazy, useEffect, useState } from "react";
import { Home } from "./pages/Home";
import { bench, playground } from "./topics";
import { fetchLabText, readLabIndex } from "./labs/lab-fetch";
import { LAB_ID } from "./labs/lab-index";
import { Loaded } from "./shared/Loaded";
import { UpdateBanner } from "./update";

function useHashRoute(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return hash.replace(/^#/, "") || "/";
}

// the lab page brings v86 and xterm.js: its own chunk, loaded only when a lab is opened. Its
// VM's files and v86's core start downloading beside it (a small chunk of their own): the
// saved machine is most of what the page waits for. (An embedded lab waits for its reader.)
const labPage = () => {
  void import("./vm/browser/fetch-ahead").then((m) => m.prepareV86());
  return import("./pages/LabPage").then((m) => m.LabPage);
};

const loading = <p className="muted">Loading…</p>;
const EmbedPage = lazy(() => import("./embed/EmbedPage").then((m) => ({ default: m.EmbedPage })));

export function App() {
  const route = useHashRoute();
  const labId = route.match(/^\/lab\/([\w-]+)$/)?.[1];
  // the lab's text fetched beside its page's chunk, not after it: the chunk (v86, xterm.js)
  // takes 50-150 ms to arrive and run, and the text is then there for the page's first render
  useEffect(() => {
    // (an id that is no folder name is never fetched: it would make a URL of its own)
    if (labId && labId !== "preview" && LAB_ID.test(labId)) {
      void fetchLabText(`${labId}/lab.md`).catch(() => undefined);
      void readLabIndex();
      // and the learner's machine for it, which the VM's start waits for (pages/find-machine.ts)
      void import("./pages/find-machine").then((m) => m.machineAhead(labId));
    }
  }, [labId]);
  if (route.startsWith("/embed/"))
    return (
      <main className="embedded">
        <Suspense fallback={loading}>
          <EmbedPage route={route} key={route.split("?")[0]} />
        </Suspense>
      </main>
    );
  const lab = route.match(/^\/lab\/([\w-]+)$/);
  const benchPage = route.match(/^\/bench\/([\w-]+)$/);
  const b = benchPage && bench(benchPage[1]);
  if (b) return <Loaded load={b.load} props={{}} fallback={loading} />;
  const play = route.match(/^\/play\/([\w-]+)(?:\?(.*))?$/);
  const p = play && playground(play[1]);
  let page;
  if (lab) page = <Loaded load={labPage} props={{ id: lab[1] }} fallback={loading} key={lab[1]} />;
  else if (p) page = <Loaded load={p.load} props={{ query: play![2] ?? "" }} fallback={loading} key={play![1]} />;
  else if (route === "/") page = <Home />;
  else page = <p>No page at {route}. <a href="#/">All labs</a></p>;
  return (
    <>
      <header className="top">
        <a href="#/" className="brand">fslab</a>
        <span className="muted">Linux filesystem and block-layer internals, in a real kernel</span>
      </header>
      <main>
        <UpdateBanner />
        <Suspense fallback={loading}>{page}</Suspense>
      </main>
    </>
  );
}
