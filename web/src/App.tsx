// Hash routes, so the built site works from any static host without rewrite rules:
//   #/              the labs
//   #/lab/<id>      one lab: its steps, the VM's terminal, its views
//   #/play/blk?...  the block-layer playground (its parameters in the query)
//   #/play/f2fs?... F2FS unlink scaling, upstream against CLUE
//   #/play/ext4?... ext4 bitmap checksum cost at 4k, bigalloc and 64k blocks
//   #/bench/frames  the views' frame-time benchmark (npm run bench opens it in Chromium)
//   #/play/exfat?... an exFAT delete's discard requests, per cluster or batched, replayed
//   #/play/write-path?... recorded function_graph traces of a write, as a call tree
//   #/play/vfat?... a name's short and long entries under iocharsets and codepages
//   #/play/exfat-dir?... the empty-entry search with and without Linux 6.2's hint
import { useEffect, useState, type ReactElement } from "react";
import { Home } from "./pages/Home";
import { LabPage } from "./pages/LabPage";
import { PlayBlk } from "./topics/blk/PlayBlk";
import { PlayF2fs } from "./topics/f2fs/PlayF2fs";
import { PlayExt4 } from "./topics/ext4/PlayExt4";
import { BenchFrames } from "./topics/exfat/BenchFrames";
import { PlayVfat } from "./topics/vfat/PlayVfat";
import { PlayExfatDir } from "./topics/exfat/PlayExfatDir";
import { PlayExfat } from "./topics/exfat/PlayExfat";
import { PlayWritePath } from "./topics/write-path/PlayWritePath";

/** each playground by its route name: its page, given the link's query */
const PLAYGROUNDS: Record<string, (query: string) => ReactElement> = {
  blk: (q) => <PlayBlk query={q} />,
  f2fs: (q) => <PlayF2fs query={q} />,
  ext4: (q) => <PlayExt4 query={q} />,
  vfat: (q) => <PlayVfat query={q} />,
  exfat: (q) => <PlayExfat query={q} />,
  "exfat-dir": (q) => <PlayExfatDir query={q} />,
  "write-path": (q) => <PlayWritePath query={q} />,
};

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
  if (route === "/bench/frames") return <BenchFrames />;
  const play = route.match(/^\/play\/([\w-]+)(?:\?(.*))?$/);
  return (
    <>
      <header className="top">
        <a href="#/" className="brand">fslab</a>
        <span className="muted">Linux filesystem and block-layer internals, in a real kernel</span>
      </header>
      <main>
        {lab ? <LabPage id={lab[1]} key={lab[1]} /> : play && PLAYGROUNDS[play[1]] ? PLAYGROUNDS[play[1]](play[2] ?? "") : route === "/" ? <Home /> : <p>No page at {route}. <a href="#/">All labs</a></p>}
      </main>
    </>
  );
}
