// One lab: its steps beside the guest's terminal and the lab's views.
import { Suspense, useCallback, useState } from "react";
import { LABS } from "../labs/registry";
import { LabSteps } from "../labs/LabSteps";
import { VmConsole, type VmHandle } from "../vm/VmConsole";
import { view } from "../topics";
import { lazyOf } from "../shared/lazy";
import type { LiveTrace } from "../shared/topic";
import type { TraceStats } from "../vm/trace-channel";

const MAX_LIVE_LINES = 100_000;

export function LabPage({ id }: { id: string }) {
  const entry = LABS.find((l) => l.id === id);
  const [vm, setVm] = useState<VmHandle | null>(null);
  const [live, setLive] = useState<LiveTrace>({ events: new Uint32Array(0), stats: null, lines: [] });
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
