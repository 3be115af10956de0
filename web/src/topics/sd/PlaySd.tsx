// /play/sd: from a card in the slot to /dev/mmcblk0. The commands Linux 7.2 sends a card it finds
// (drivers/mmc/core: mmc_rescan -> mmc_rescan_try_freq -> mmc_attach_sd -> mmc_sd_init_card),
// one step at a time: the sequence between host and card, the card's state machine with its
// current state lit, and the registers it answered with, decoded as Linux decodes them. The
// blog series "Linuxカーネルのファイルアクセスの処理を追いかける" follows the same path on an ARM
// board's PL181 host (mmci_probe); here the host is an SDHCI controller (sdhci_pci_probe), and
// the core's part is the same. The model (wasm/src/sd) equals the guest kernel's mmc events for
// the emulated card, request for request (e2e/sd.e2e.ts).
import { useEffect, useState } from "react";
import { useParams } from "../../shared/useParams";
import { LinkProblems, ParamField } from "../../shared/view/ParamField";
import { StepControls } from "../../shared/view/StepControls";
import { TableAlt } from "../../shared/view/TableAlt";
import { useWorker } from "../../shared/useWorker";
import { SD_PARAMS } from "./params";
import { cardSizeError } from "../../shared/sd-card-spec";
import { sdClient, type SdRun } from "./sd-client";
import { CARD_LABEL, CARD_TYPES, commandName, hex, type CardType } from "./sd-core";
import { SdSequence, answerWords } from "./SdSequence";
import { SdStates } from "./SdStates";
import { SdRegister } from "./SdRegisters";
import { CID_FIELDS, CSD_FIELDS, compareFields } from "./sd-compare";
import "./sd.css";

export function PlaySd({ query }: { query: string }) {
  const params = useParams(SD_PARAMS, query, "sd");
  const { client } = useWorker(sdClient);
  const [run, setRun] = useState<SdRun | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [position, setPosition] = useState(0);
  const [guess, setGuess] = useState("");
  const [revealed, setRevealed] = useState(false);
  const { card, mib } = params.values;
  // the rule between the two fields: an SDSC card holds up to 2 GiB, an SDHC card more
  const sizeError = params.valid ? cardSizeError(card as CardType, mib * 2 ** 20) : null;

  useEffect(() => {
    if (!client || !params.valid) return;
    if (sizeError) {
      setRun(null);
      setError(sizeError);
      return;
    }
    let live = true;
    client.attach(card as CardType, mib * 2 ** 20).then(
      (r) => {
        if (!live) return;
        setRun(r);
        setPosition(0);
        setError(null);
      },
      (e) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [client, card, mib, params.valid, sizeError]);

  const records = run?.records ?? [];
  const shownCount = revealed ? records.length : null;
  const now = records[position];
  const upTo = records.slice(0, position + 1);
  const cidSeen = upTo.some((r) => r.opcode === 2 && !r.app && !r.err);
  const csdSeen = upTo.some((r) => r.opcode === 9 && !r.app && !r.err);
  const guessN = Number(guess);

  return (
    <section className="play">
      <h1>SD: from a card in the slot to /dev/mmcblk0</h1>
      <p>
        When a card is inserted, the SDHCI host raises a card-detect interrupt and the kernel's MMC core runs{" "}
        <code>mmc_rescan</code>. It does not know what was inserted: it tries SDIO (<code>CMD52</code>, <code>CMD5</code>), asks
        whether the card speaks version 2 of the specification (<code>CMD8</code>), then walks an SD memory card from{" "}
        <em>idle</em> to <em>tran</em>, the state in which it reads and writes blocks. Each arrow is one request, as the
        kernel's <code>mmc_request_start</code> and <code>mmc_request_done</code> events record it.
      </p>
      <form className="play-form" onSubmit={(e) => e.preventDefault()} aria-label="the card">
        <LinkProblems problems={params.linkProblems} />
        <label>
          card{" "}
          <select value={params.raw.card} onChange={(e) => params.set("card", e.target.value)} aria-label="card type">
            {CARD_TYPES.map((t) => (
              <option key={t} value={t}>{CARD_LABEL[t]}</option>
            ))}
          </select>
        </label>{" "}
        <ParamField name="mib" spec={SD_PARAMS.mib} raw={params.raw.mib} error={params.errors.mib} label="size" after="MiB" onChange={(t) => params.set("mib", t)} />
      </form>
      <fieldset className="predict">
        <legend>Predict first: how many requests does Linux send before the card is ready for data on four lines (ACMD6)?</legend>
        <label>
          requests <input value={guess} onChange={(e) => setGuess(e.target.value)} inputMode="numeric" size={4} aria-label="your prediction: requests" disabled={revealed} />
        </label>{" "}
        <button type="button" onClick={() => setRevealed(true)} disabled={revealed || !run}>{guess.trim() ? "Reveal" : "No guess: reveal"}</button>
        {revealed && shownCount !== null && (
          <p role="status" data-testid="sd-count">
            {shownCount} requests{guess.trim() && Number.isFinite(guessN) ? ` (you said ${guessN})` : ""}. The SDIO probe alone takes{" "}
            {records.filter((r) => r.opcode === 5 || r.opcode === 52).length}: <code>CMD5</code> is tried four times, because{" "}
            <code>mmc_send_io_op_cond</code> allows three retries, and every one times out on a memory card. Each ACMD is two
            requests: <code>CMD55</code>, then the command.
          </p>
        )}
      </fieldset>
      {error && <p className="error" role="alert">{error}</p>}
      {run && !revealed && <p className="muted">Predict (or choose not to), then step through the requests.</p>}
      {run && now && revealed && (
        <>
          <StepControls total={records.length - 1} position={position} onChange={setPosition} unit="request" items />
          <p role="status" data-testid="sd-now">
            Request {position + 1}: <strong>{commandName(now.opcode, now.app)}</strong> with argument <code>{hex(now.arg)}</code>;{" "}
            {answerWords(now)}; the card is now in <strong>{now.state}</strong>.
          </p>
          <div className="sd-views">
            <SdSequence records={records} position={position} />
            <SdStates states={records.map((r) => r.state)} position={position} who="the model" />
          </div>
          <TableAlt
            summary="the requests as a table"
            head={["#", "command", "argument", "answer", "card state after"]}
            count={records.length}
            row={(i) => [i + 1, commandName(records[i].opcode, records[i].app), hex(records[i].arg), answerWords(records[i]), records[i].state ?? ""]}
          />
          <h2>The registers it answered with</h2>
          {!cidSeen && <p className="muted">Step on to <code>CMD2</code> (ALL_SEND_CID) to see the card's identity.</p>}
          {cidSeen && run.cid && <SdRegister caption="CID, as mmc_decode_cid reads it" sides={["model"]} rows={compareFields(CID_FIELDS, [run.cid])} testId="sd-cid" />}
          {cidSeen && !csdSeen && <p className="muted">Step on to <code>CMD9</code> (SEND_CSD) to see its capacity.</p>}
          {csdSeen && run.csd && (
            <>
              <SdRegister caption="CSD, as mmc_decode_csd reads it" sides={["model"]} rows={compareFields(CSD_FIELDS, [run.csd])} testId="sd-csd" />
              <p>
                Capacity:{" "}
                {run.csd.structure === 0
                  ? `(C_SIZE + 1) × 2^(C_SIZE_MULT + 2) × 2^READ_BL_LEN = ${run.csd.sectors * 512} bytes`
                  : `(C_SIZE + 1) × 512 KiB = ${run.csd.sectors * 512} bytes`}{" "}
                = {run.csd.sectors} sectors.
              </p>
            </>
          )}
        </>
      )}
    </section>
  );
}
