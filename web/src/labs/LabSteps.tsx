// A lab's steps: Markdown through marked and DOMPurify (markdown.ts), `vm` blocks as commands the learner sends to the
// guest with a click, `check` blocks shown as what the step expects.
import { renderMarkdown } from "./markdown";
import type { LabStep } from "./lab-format";
import type { VmHandle } from "../vm/VmConsole";

export function LabSteps({ steps, vm }: { steps: LabStep[]; vm: VmHandle | null }) {
  return (
    <ol className="steps">
      {steps.map((s, i) => (
        <li key={i} className="step">
          <h2>{s.title}</h2>
          {s.blocks.map((b, j) =>
            b.kind === "markdown" ? (
              <div key={j} dangerouslySetInnerHTML={{ __html: renderMarkdown(b.text) }} />
            ) : b.kind === "vm" ? (
              <div key={j} className="vm-cmd">
                <pre><code>{b.text}</code></pre>
                <button disabled={!vm} onClick={() => b.text.split("\n").forEach((l) => vm?.type(l + "\n"))} title={vm ? "Type this into the VM's shell" : "Waiting for the VM to boot"}>
                  Run in VM
                </button>
              </div>
            ) : (
              <details key={j} className="check">
                <summary>What this step checks</summary>
                <pre><code>{b.text}</code></pre>
              </details>
            ),
          )}
        </li>
      ))}
    </ol>
  );
}
