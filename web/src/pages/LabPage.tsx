// One lab: its steps beside the guest's terminal and the lab's views.
import { Suspense, useCallback, useRef, useState } from "react";
import { LABS } from "../labs/registry";
import { LabSteps } from "../labs/LabSteps";
import { VmConsole, type VmHandle } from "../vm/VmConsole";
import { view } from "../topics";
import { lazyOf } from "../shared/lazy";
import type { LiveTrace } from "../shared/topic";
import type { TraceStats } from "../vm/trace-channel";

import { LiveBuffer } from "../shared/live-buffer";

export function LabPage({ id }: { id: string }) {
  const entry = LABS.find((l) => l.id === id);
  const [vm, setVm] = useState<VmHandle | null>(null);
  // the streamed events, in one bounded buffer for the page's life (not a copy of all so far per batch)
  const buffer = useRef(new LiveBuffer());
  const [live, setLive] = useState<LiveTrace>(() => ({ events: new Uint32Array(0), stats: null, lines: buffer.current.lines, version: 0 }));
  const onTrace = useCallback((records: Uint32Array, stats: TraceStats, lines: string[]) => {
    const b = buffer.current;
    b.append(records, lines);
    setLive({ events: b.events, stats, lines: b.lines, version: b.version, dropped: b.droppedRecords || b.droppedLines ? { records: b.droppedRecords, lines: b.droppedLines } : undefined });
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
        {live.dropped && (
          <p className="muted" role="status" data-testid="live-dropped">
            To keep the page's memory bounded over a long session, the oldest kernel events were let go: {live.dropped.records} records and{" "}
            {live.dropped.lines} trace lines. The views show the newest.
          </p>
        )}
        <Suspense fallback={<p className="muted">Loading the lab's views…</p>}>
          {meta.views.map((id) => {
            const spec = view(id);
            if (!spec) return <p key={id} className="error">This lab names a view "{id}" that no topic declares.</p>;
            const View = lazyOf(spec.load);
            return <View key={id} live={live} vm={vm} />;
          })}
        </Suspense>
      </div>
    </div>
  );
}
