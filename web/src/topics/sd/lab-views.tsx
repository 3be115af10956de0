// The SD card in a lab: the slot (insert a card of a chosen size and type, eject it, as the
// guest's `sdcard` command does), and the kernel's initialisation of the card, read from the
// guest's mmc events (fslab-trace start mmc/mmc_request_start mmc/mmc_request_done) and set
// beside the model's for the same card, request for request, differences marked; then the card's
// state machine and its CID and CSD, each as the kernel's records show them beside the model's
// (sd-compare.ts: the state from the answers' CURRENT_STATE, the registers from CMD2's and CMD9's
// answers through the core's decoders).
import { useEffect, useMemo, useState } from "react";
import type { LabViewProps } from "../../shared/topic";
import { useVerdict, type Verdict } from "../../shared/verdict";
import { useWorker } from "../../shared/useWorker";
import { TableAlt } from "../../shared/view/TableAlt";
import { sdClient, type SdRegisters, type SdRun } from "./sd-client";
import { CARD_TYPES, commandName, hex, type CardType, type SdRecord } from "./sd-core";
import { compareRecords, initialisation, recordsFromTrace } from "./sd-trace";
import { CID_FIELDS, CSD_FIELDS, compareFields, compareStates, kernelStateAt, kernelStates, registerAnswers, type KernelState } from "./sd-compare";
import { SdSequence, answerWords } from "./SdSequence";
import { SdStates } from "./SdStates";
import { SdRegister } from "./SdRegisters";
import "./sd.css";

/** "ok sdhc 67108864 tran" -> the card, or null for an empty slot */
function parseStatus(answer: string): { type: CardType; bytes: number; state: string } | null {
  const m = /^ok (sdhc|sdsc|v1) (\d+) (\w+)/.exec(answer);
  return m ? { type: m[1] as CardType, bytes: Number(m[2]), state: m[3] } : null;
}

function Slot({ vm, seed }: Pick<LabViewProps, "vm" | "seed">) {
  const [status, setStatus] = useState("ok empty");
  const [said, setSaid] = useState<string | null>(null);
  // the learner's own card (the lab's seed: card_kib), so a card put in here is theirs too
  const [size, setSize] = useState(typeof seed?.card_kib === "number" ? `${seed.card_kib}K` : "64M");
  const [type, setType] = useState<CardType>("sdsc");
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
export function SdInitLab({ live, vm, onVerdict, seed, challengeOpen }: LabViewProps) {
  const { kernel, next, after } = useMemo(() => {
    const all = recordsFromTrace(live.lines);
    const init = initialisation(all);
    const end = init.length ? all.indexOf(init.at(-1)!) + 1 : 0;
    // the request after the initialisation (the block driver's first read) reports the state ACMD6 left
    return { kernel: init, next: init.length ? all[end] : undefined, after: init.length ? all.length - end : 0 };
  }, [live.version, live.lines]);
  const done = kernel.length > 0 && kernel.at(-1)!.app && kernel.at(-1)!.opcode === 6;
  const [card, setCard] = useState<{ type: CardType; bytes: number; serial?: number } | null>(null);
  const [run, setRun] = useState<SdRun | null>(null);
  const model = run?.records ?? null;
  const { client } = useWorker(sdClient);
  useEffect(() => {
    if (!vm || !done) return;
    const c = parseStatus(vm.sdSlot("status"));
    // each card has its own CID serial: the model's card takes this one's
    const serial = /^ok (0x[0-9a-f]{8})$/.exec(vm.sdSlot("serial"))?.[1];
    if (c) setCard({ type: c.type, bytes: c.bytes, serial: serial ? Number(serial) : undefined });
  }, [vm, done]);
  useEffect(() => {
    if (!client || !card) return;
    client.attach(card.type, card.bytes, card.serial).then(setRun, () => setRun(null));
  }, [client, card?.type, card?.bytes, card?.serial]);
  // the kernel's CID and CSD, decoded by the model's own decoders in the worker
  const answers = useMemo(() => registerAnswers(kernel), [kernel]);
  const answersKey = JSON.stringify(answers);
  const [kernelRegs, setKernelRegs] = useState<SdRegisters | null>(null);
  useEffect(() => {
    if (!client || (!answers.cid && !answers.csd)) return setKernelRegs(null);
    let live = true;
    client.decode(answers.cid, answers.csd).then((r) => live && setKernelRegs(r), () => live && setKernelRegs(null));
    return () => {
      live = false;
    };
  }, [client, answersKey]);
  const states = useMemo(() => kernelStates(kernel, next), [kernel, next]);
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
      <Slot vm={vm} seed={seed} />
      <p data-testid="sd-verdict" data-state={verdict.state}>
        {verdict.state === "agree" ? "The kernel and the model: " : verdict.state === "disagree" ? "The kernel and the model differ: " : "Waiting: "}
        {verdict.detail}
        {/* the page's count of requests (a prediction's) takes these too: say where they went */}
        {done && after > 0 && (
          <span data-testid="sd-after" data-after={after}>
            . After <code>ACMD6</code> the kernel sent {after} more: the block driver&apos;s (the partition table&apos;s read, then what the
            learner does with the card), which the model of the card&apos;s initialisation does not cover
          </span>
        )}
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
          <KernelStates kernel={kernel} states={states} model={model} position={Math.min(position, kernel.length - 1)} />
          <KernelRegisters kernel={kernelRegs} model={run} held={!!challengeOpen} />
        </>
      )}
    </section>
  );
}

/** Where the kernel's state after a request comes from, in words. */
function stateSource(kernel: readonly SdRecord[], s: KernelState, i: number): string {
  if (!s.state) return i + 1 < kernel.length ? `not reported (request ${i + 2}'s answer has no CURRENT_STATE)` : "not reported yet";
  const by = s.from! < kernel.length ? kernel[s.from!] : null;
  return `${s.state} (request ${s.from! + 1}${by ? `, ${commandName(by.opcode, by.app)}` : ", after the initialisation"}, reported it)`;
}

/** The card's state machine as the kernel's records show it, beside the model's. */
function KernelStates({ kernel, states, model, position }: { kernel: readonly SdRecord[]; states: readonly KernelState[]; model: readonly SdRecord[] | null; position: number }) {
  const rows = model ? compareStates(model, states) : null;
  const differ = rows?.filter((r) => r.differ).length ?? 0;
  const compared = rows?.filter((r) => r.kernel && r.model).length ?? 0;
  const now = kernelStateAt(states, position);
  const stale = !!now && now.at !== position;
  const modelNow = model?.[position]?.state;
  const litDiffer = !!rows?.[position]?.differ;
  const r = kernel[position];
  return (
    <div className="sd-part" data-testid="sd-kernel-states" data-differ={rows ? differ : undefined} data-compared={compared} data-kernel-state={now?.state} data-model-state={modelNow}>
      <h3>The card's state</h3>
      <p className="muted">
        The kernel's events do not name the card's state, but the card's answers do: an R1 (and <code>CMD3</code>'s R6) carries
        CURRENT_STATE, the state in which the card <em>received</em> that command. So the state after a request is read from
        the next request's answer, where that answer is an R1; after a request followed by <code>CMD2</code>,{" "}
        <code>CMD9</code> or <code>ACMD41</code> the records do not say, and nothing is compared there.
      </p>
      <p role="status">
        After request {position + 1} ({commandName(r.opcode, r.app)}): the kernel's records{" "}
        {now ? (stale ? <>last reported <strong>{now.state}</strong>, after request {now.at + 1}</> : <>say <strong>{now.state}</strong></>) : "report no state yet"}; the model says{" "}
        <strong>{modelNow ?? "…"}</strong>
        {litDiffer ? " — they differ" : ""}.{" "}
        {rows && (differ ? `${differ} of the ${compared} states the records report differ from the model's.` : `All ${compared} states the records report are the model's.`)}
      </p>
      <div className="sd-compare sd-states-pair">
        <figure>
          <figcaption>the kernel's records</figcaption>
          <SdStates states={states.map((s) => s.state)} position={position} current={now?.state} stale={stale} differ={litDiffer} who="the kernel's records" />
        </figure>
        <figure>
          <figcaption>the model</figcaption>
          {model ? <SdStates states={model.map((m) => m.state)} position={position} differ={litDiffer} who="the model" /> : <p className="muted">the model is running</p>}
        </figure>
      </div>
      <TableAlt
        summary="the card's state after each request, the kernel's beside the model's"
        head={["#", "command", "kernel: state after it", "model: state after it", "same?"]}
        count={kernel.length}
        row={(i) => [i + 1, commandName(kernel[i].opcode, kernel[i].app), stateSource(kernel, states[i], i), model?.[i]?.state ?? "…", !rows ? "…" : rows[i].differ ? "≠ differs" : rows[i].kernel && rows[i].model ? "yes" : "not compared"]}
      />
    </div>
  );
}

/** The CID and CSD decoded from the kernel's CMD2 and CMD9 answers, beside the model's. */
function KernelRegisters({ kernel, model, held }: { kernel: SdRegisters | null; model: SdRegisters | null; held: boolean }) {
  if (!kernel) return null;
  const sides = ["kernel", "model"];
  return (
    <div className="sd-part" data-testid="sd-kernel-registers">
      <h3>The registers the card answered with</h3>
      <p className="muted">
        The CID is <code>CMD2</code>'s answer and the CSD <code>CMD9</code>'s, four words each in the kernel's{" "}
        <code>mmc_request_done</code>; both sides are decoded by the model's decoders, as <code>mmc_decode_cid</code> and{" "}
        <code>mmc_decode_csd</code> read them.
      </p>
      <div className="sd-compare sd-registers">
        {kernel.cid && <SdRegister caption="CID" sides={sides} rows={compareFields(CID_FIELDS, [kernel.cid, model?.cid])} testId="sd-kernel-cid" />}
        {/* the sd-card lab's challenge step has the learner decode these fields by hand: held
            back until it has passed (from the steps before it too), folded after */}
        {kernel.csd && held && (
          <p className="muted" data-testid="sd-csd-held">
            The CSD field by field is held back until you have passed the lab's challenge, which asks you to decode it.
          </p>
        )}
        {kernel.csd && !held && (
          <details className="sd-csd-fields" data-testid="sd-csd-fields">
            <summary>The CSD, field by field (the lab&apos;s step &quot;The card&apos;s size, from the card&apos;s own words&quot; asks you to decode it yourself: open this after)</summary>
            <SdRegister caption="CSD" sides={sides} rows={compareFields(CSD_FIELDS, [kernel.csd, model?.csd])} testId="sd-kernel-csd" />
          </details>
        )}
      </div>
    </div>
  );
}
