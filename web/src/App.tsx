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
import { useEffect, useState } from "react";
import { Home } from "./pages/Home";
import { LabPage } from "./pages/LabPage";
import { PlayBlk } from "./pages/PlayBlk";
import { PlayF2fs } from "./pages/PlayF2fs";
import { PlayExt4 } from "./pages/PlayExt4";
import { BenchFrames } from "./pages/BenchFrames";
import { PlayVfat } from "./pages/PlayVfat";
import { PlayExfat } from "./pages/PlayExfat";
import { PlayWritePath } from "./pages/PlayWritePath";

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
  const play = route.match(/^\/play\/(blk|f2fs|ext4|vfat|exfat|write-path)(?:\?(.*))?$/);
  return (
    <>
      <header className="top">
        <a href="#/" className="brand">fslab</a>
        <span className="muted">Linux filesystem and block-layer internals, in a real kernel</span>
      </header>
      <main>
        {lab ? <LabPage id={lab[1]} key={lab[1]} /> : play ? (play[1] === "blk" ? <PlayBlk query={play[2] ?? ""} /> : play[1] === "f2fs" ? <PlayF2fs query={play[2] ?? ""} /> : play[1] === "ext4" ? <PlayExt4 query={play[2] ?? ""} /> : play[1] === "exfat" ? <PlayExfat query={play[2] ?? ""} /> : play[1] === "write-path" ? <PlayWritePath query={play[2] ?? ""} /> : <PlayVfat query={play[2] ?? ""} />) : route === "/" ? <Home /> : <p>No page at {route}. <a href="#/">All labs</a></p>}
      </main>
    </>
  );
}
