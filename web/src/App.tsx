// Hash routes, so the built site works from any static host without rewrite rules:
//   #/              the labs
//   #/lab/<id>      one lab: its steps, the VM's terminal, its views
//   #/play/blk?...  the block-layer playground (its parameters in the query)
import { useEffect, useState } from "react";
import { Home } from "./pages/Home";
import { LabPage } from "./pages/LabPage";
import { PlayBlk } from "./pages/PlayBlk";

function useHashRoute(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return hash.replace(/^#/, "") || "/";
}

export function App() {
  const route = useHashRoute();
  const lab = route.match(/^\/lab\/([\w-]+)$/);
  const play = route.match(/^\/play\/blk(?:\?(.*))?$/);
  return (
    <>
      <header className="top">
        <a href="#/" className="brand">fslab</a>
        <span className="muted">Linux filesystem and block-layer internals, in a real kernel</span>
      </header>
      <main>
        {lab ? <LabPage id={lab[1]} key={lab[1]} /> : play ? <PlayBlk query={play[1] ?? ""} /> : route === "/" ? <Home /> : <p>No page at {route}. <a href="#/">All labs</a></p>}
      </main>
    </>
  );
}
