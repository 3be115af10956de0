// One lab: its steps beside the guest's terminal and the lab's views.
import { useCallback, useState, type ReactElement } from "react";
import { LABS } from "../labs/registry";
import { LabSteps } from "../labs/LabSteps";
import { VmConsole, type VmHandle } from "../vm/VmConsole";
import { ExfatView } from "../topics/exfat/ExfatView";
import { KernelDiscards } from "../topics/exfat/KernelDiscards";
import { DirectoryView } from "../topics/exfat/DirectoryView";
import { KernelEmptySearch } from "../topics/exfat/KernelEmptySearch";
import { DiskView } from "../topics/exfat/DiskView";
import { WritePathView } from "../topics/write-path/WritePathView";
import { KernelNidScans, runUnder, useLabNidRuns } from "../topics/f2fs/KernelNidScans";
import { F2fsDiskNat } from "../topics/f2fs/F2fsDiskNat";
import { KernelDeadlineLive } from "../topics/blk/KernelDeadline";
import { Ext4DirectView } from "../topics/ext4/Ext4DirectView";
import { discardsOf } from "../shared/events";
import type { TraceStats } from "../vm/trace-channel";

/** the guest's events so far, in the models' record format, and the channel's counters */
interface Live {
  events: Uint32Array;
  stats: TraceStats | null;
  lines: string[]; // the tracefs lines themselves, newest last (at most MAX_LIVE_LINES)
}
const MAX_LIVE_LINES = 100_000;

const VIEWS: Record<string, (live: Live, vm: VmHandle | null) => ReactElement> = {
  "exfat-clusters": (live) => (
    <div key="exfat-clusters" className="view-pair">
      <ExfatView />
      <KernelDiscards discards={discardsOf(live.events)} stats={live.stats} />
    </div>
  ),
  "exfat-dir": (live, vm) => (
    <div key="exfat-dir" className="view-pair">
      <DirectoryView />
      <KernelEmptySearch events={live.events} stats={live.stats} />
      <DiskView vm={vm} file="dir.img" dir="/dir" />
    </div>
  ),
  "write-path": (_live, vm) => <WritePathView key="write-path" vm={vm} />,
  "f2fs-nid": (live, vm) => <F2fsNidViews key="f2fs-nid" live={live} vm={vm} />,
  "mq-deadline": (live) => <KernelDeadlineLive key="mq-deadline" lines={live.lines} />,
  "ext4-direct": (_live, vm) => <Ext4DirectView key="ext4-direct" vm={vm} />,
};

/** The f2fs-clue lab's panels: the model runs once for both (the lab's last run is under clue 4). */
function F2fsNidViews({ live, vm }: { live: Live; vm: VmHandle | null }) {
  const runs = useLabNidRuns();
  return (
    <div className="view-pair">
      <KernelNidScans events={live.events} stats={live.stats} modelRuns={runs} />
      <F2fsDiskNat vm={vm} model={runUnder(runs, 4)} />
    </div>
  );
}

export function LabPage({ id }: { id: string }) {
  const entry = LABS.find((l) => l.id === id);
  const [vm, setVm] = useState<VmHandle | null>(null);
  const [live, setLive] = useState<Live>({ events: new Uint32Array(0), stats: null, lines: [] });
  const onTrace = useCallback((records: Uint32Array, stats: TraceStats, lines: string[]) => {
    setLive((l) => {
      const events = new Uint32Array(l.events.length + records.length);
      events.set(l.events);
      events.set(records, l.events.length);
      const all = lines.length ? [...l.lines, ...lines] : l.lines;
      return { events, stats, lines: all.length > MAX_LIVE_LINES ? all.slice(-MAX_LIVE_LINES) : all };
    });
  }, []);
  if (!entry) return <p>There is no lab "{id}". <a href="#/">All labs</a></p>;
  if (!entry.lab) return <p className="error">This lab has an error: {entry.error}</p>;
  const { meta, steps } = entry.lab;
  return (
    <div className="lab-page">
      <article className="lab-text">
        <h1>{meta.title}</h1>
        <p className="muted">{meta.time}</p>
        <LabSteps steps={steps} vm={vm} />
      </article>
      <div className="lab-work">
        <VmConsole onReady={setVm} onTrace={onTrace} />
        {meta.views.map((v) => VIEWS[v]?.(live, vm))}
      </div>
    </div>
  );
}
