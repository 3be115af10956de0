// Step, play and scrub through a recorded run: the model's events one at a time, at a chosen
// speed. Keyboard (with focus on the controls): Space plays or pauses, Left/Right step,
// Home/End go to the start and the end.
import { useEffect, useRef, useState, type KeyboardEvent } from "react";

interface Props {
  /** steps in the run; the position goes from 0 (nothing applied) to total */
  total: number;
  position: number;
  onChange(position: number): void;
  /** what one step is, for the labels: "event" */
  unit?: string;
  /** each position is one of the run's items (the first at 0): shown as "decision 1 of N" */
  items?: boolean;
}

const SPEEDS = [1, 10, 100, 1000, 10000];

export function StepControls({ total, position, onChange, unit = "step", items = false }: Props) {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10); // steps per second
  const pos = useRef(position);
  pos.current = position;

  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let carry = 0;
    let raf = requestAnimationFrame(function frame(now) {
      // a frame's time is when the frame began, which can be before the effect's
      // performance.now(): a negative step would move the replay back as it starts
      carry += (Math.max(0, now - last) / 1000) * speed;
      last = now;
      const steps = Math.floor(carry);
      carry -= steps;
      const next = Math.min(total, pos.current + steps);
      if (next !== pos.current) onChange(next);
      if (next >= total) setPlaying(false);
      else raf = requestAnimationFrame(frame);
    });
    return () => cancelAnimationFrame(raf);
  }, [playing, speed, total, onChange]);

  const go = (p: number) => onChange(Math.max(0, Math.min(total, p)));
  const onKey = (e: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      " ": () => setPlaying((p) => !p && position < total),
      ArrowRight: () => go(position + 1),
      ArrowLeft: () => go(position - 1),
      Home: () => go(0),
      End: () => go(total),
    };
    if (keys[e.key] && (e.target as HTMLElement).tagName !== "SELECT") {
      e.preventDefault();
      keys[e.key]();
    }
  };

  return (
    <div className="step-controls toolbar" role="group" aria-label="replay" onKeyDown={onKey}>
      <button onClick={() => go(0)} disabled={position === 0} aria-label="to the start">|◀</button>
      <button onClick={() => go(position - 1)} disabled={position === 0} aria-label={`back one ${unit}`}>◀</button>
      <button onClick={() => setPlaying(!playing)} disabled={!playing && position >= total} data-testid="play">
        {playing ? "Pause" : "Play"}
      </button>
      <button onClick={() => go(position + 1)} disabled={position >= total} aria-label={`forward one ${unit}`} data-testid="step">▶</button>
      <button onClick={() => go(total)} disabled={position >= total} aria-label="to the end">▶|</button>
      <input
        type="range"
        min={0}
        max={total}
        value={position}
        onChange={(e) => go(Number(e.target.value))}
        aria-label={items ? `${unit} ${position + 1} of ${total + 1}` : `${unit} ${position} of ${total}`}
        data-testid="scrub"
      />
      <span data-testid="position">{items ? `${unit} ${position + 1} of ${total + 1}` : `${position} / ${total} ${unit}s`}</span>
      <label>
        speed{" "}
        <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>{s}/s</option>
          ))}
        </select>
      </label>
    </div>
  );
}
