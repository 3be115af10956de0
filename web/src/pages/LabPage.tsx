// One lab: its steps beside the guest's terminal and the lab's views.
import { useState, type ReactElement } from "react";
import { LABS } from "../labs/registry";
import { LabSteps } from "../labs/LabSteps";
import { VmConsole, type VmHandle } from "../vm/VmConsole";
import { ExfatView } from "../viz/ExfatView";

const VIEWS: Record<string, () => ReactElement> = {
  "exfat-clusters": () => <ExfatView key="exfat-clusters" />,
};

export function LabPage({ id }: { id: string }) {
  const entry = LABS.find((l) => l.id === id);
  const [vm, setVm] = useState<VmHandle | null>(null);
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
        <VmConsole onReady={setVm} />
        {meta.views.map((v) => VIEWS[v]?.())}
      </div>
    </div>
  );
}
