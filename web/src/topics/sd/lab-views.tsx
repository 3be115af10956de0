// The SD card in a lab: the slot (insert a card of a chosen size and type, eject it, as the
// guest's `sdcard` command does), and the kernel's initialisation of the card, read from the
// guest's mmc events (fslab-trace start mmc/mmc_request_start mmc/mmc_request_done) and set
// beside the model's for the same card, request for request, differences marked.
import { useEffect, useMemo, useState } from "react";
import type { LabViewProps } from "../../shared/topic";
import { useVerdict, type Verdict } from "../../shared/verdict";
import { useWorker } from "../../shared/useWorker";
import { TableAlt } from "../../shared/view/TableAlt";
import { sdClient } from "./sd-client";
import { CARD_TYPES, commandName, hex, type CardType, type SdRecord } from "./sd-core";
import { compareRecords, initialisation, recordsFromTrace } from "./sd-trace";
import { SdSequence, answerWords } from "./SdSequence";

/** "ok sdhc 67108864 tran" -> the card, or null for an empty slot */
function parseStatus(answer: string): { type: CardType; bytes: number; state: string } | null {
  const m = /^ok (sdhc|sdsc|v1) (\d+) (\w+)/.exec(answer);
  return m ? { type: m[1] as CardType, bytes: Number(m[2]), state: m[3] } : null;
}

function Slot({ vm }: Pick<LabViewProps, "vm">) {
  const [status, setStatus] = useState("ok empty");
  const [said, setSaid] = useState<string | null>(null);
  const [size, setSize] = useState("64M");
  const [type, setType] = useState<CardType>("sdhc");
  useEffect(() => {
    if (!vm) return;
    const poll = () => setStatus(vm.sdSlot("status"));
    poll();
    const t = setInterval(poll, 1000);
    return () => clearInterval(t);
  }, [vm]);
  const card = parseStatus(status);
  const ask = (req: string) => {
    if (!vm) return;
    setSaid(vm.sdSlot(req));
    setStatus(vm.sdSlot("status"));
  };
  return (
    <div className="sd-slot" data-testid="sd-slot">
      <p role="status">
        SD slot: {card ? <><strong>{card.type}</strong> card of {card.bytes / 2 ** 20} MiB, in state <strong>{card.state}</strong></> : <strong>empty</strong>}
      </p>
      {card ? (
        <button type="button" onClick={() => ask("eject")} disabled={!vm}>Eject the card</button>
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); ask(`insert ${size} ${type}`); }} aria-label="insert a card">
          <label>size <input value={size} onChange={(e) => setSize(e.target.value)} size={6} aria-label="card size, e.g. 64M" /></label>{" "}
          <label>type <select value={type} onChange={(e) => setType(e.target.value as CardType)} aria-label="card type">{CARD_TYPES.map((t) => <option key={t}>{t}</option>)}</select></label>{" "}
          <button type="submit" disabled={!vm}>Insert a card</button>
        </form>
      )}
      {said && <p className="muted" aria-live="polite">{said.replace(/^ok /, "").replace(/^error /, "Refused: ")}</p>}
    </div>
  );
}

/** The kernel's initialisation of the card in the slot beside the model's (view `sd-init`). */
export function SdInitLab({ live, vm, onVerdict }: LabViewProps) {
  const kernel = useMemo(() => initialisation(recordsFromTrace(live.lines)), [live.version, live.lines]);
  const done = kernel.length > 0 && kernel.at(-1)!.app && kernel.at(-1)!.opcode === 6;
  const [card, setCard] = useState<{ type: CardType; bytes: number } | null>(null);
  const [model, setModel] = useState<SdRecord[] | null>(null);
  const { client } = useWorker(sdClient);
  useEffect(() => {
    if (!vm || !done) return;
    const c = parseStatus(vm.sdSlot("status"));
    if (c) setCard({ type: c.type, bytes: c.bytes });
  }, [vm, done]);
  useEffect(() => {
    if (!client || !card) return;
    client.attach(card.type, card.bytes).then((r) => setModel(r.records), () => setModel(null));
  }, [client, card?.type, card?.bytes]);
  const rows = useMemo(() => (model && done ? compareRecords(model, kernel) : null), [model, kernel, done]);
  const differ = new Set(rows?.flatMap((r, i) => (r.differ.length ? [i] : [])) ?? []);
  const verdict: Verdict = !done
    ? { state: "waiting", detail: kernel.length ? `${kernel.length} requests so far` : "no initialisation traced yet" }
    : !rows
    ? { state: "waiting", detail: "the model is running" }
    : differ.size
    ? { state: "disagree", detail: `${differ.size} of ${rows.length} requests differ from the model's` }
    : { state: "agree", detail: `all ${rows.length} requests as the model sent them` };
  useVerdict(onVerdict, verdict);
  const [position, setPosition] = useState(0);
  useEffect(() => setPosition(Math.max(0, kernel.length - 1)), [kernel.length]);
  return (
    <section className="lab-view" aria-label="the SD card's initialisation">
      <Slot vm={vm} />
      <p data-testid="sd-verdict" data-state={verdict.state}>
        {verdict.state === "agree" ? "The kernel and the model: " : verdict.state === "disagree" ? "The kernel and the model differ: " : "Waiting: "}
        {verdict.detail}
      </p>
      {kernel.length > 0 && (
        <>
          <label>
            request{" "}
            <input type="range" min={0} max={kernel.length - 1} value={Math.min(position, kernel.length - 1)} onChange={(e) => setPosition(Number(e.target.value))} aria-label="request shown" />{" "}
            {Math.min(position, kernel.length - 1) + 1} of {kernel.length}
          </label>
          <SdSequence records={kernel.map((r, i) => ({ ...r, state: model?.[i]?.state }))} position={Math.min(position, kernel.length - 1)} differ={differ} />
          <TableAlt
            summary="the kernel's requests beside the model's"
            head={["#", "kernel: command", "argument", "answer", "model: same?"]}
            count={kernel.length}
            row={(i) => [i + 1, commandName(kernel[i].opcode, kernel[i].app), hex(kernel[i].arg), answerWords(kernel[i]), rows ? (rows[i]?.differ.length ? `differs in ${rows[i].differ.join(", ")}` : "yes") : "…"]}
          />
        </>
      )}
    </section>
  );
}
