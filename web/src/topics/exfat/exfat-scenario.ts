// The exFAT lab's actions, built from core operations. Pure over an ExfatCore, so the worker,
// the CLI and the tests run the very same steps and get the very same numbers.
import { ExfatCore, type ExfatSnapshot } from "./exfat-core";
import { DiscardPolicy, discardsOf, type ExfatDiscard } from "./events";

export interface DeleteResult {
  name: string;
  policy: DiscardPolicy;
  events: Uint32Array; // bitmap clears and discards, in the order the kernel issues them
  discards: ExfatDiscard[];
  /** The same delete run on a copy of the volume under the other policy. */
  otherPolicyDiscards: number;
}

export class ExfatLab {
  private seq = 0;

  constructor(readonly core: ExfatCore) {
    core.setPolicy(true, DiscardPolicy.Batched); // mounted with -o discard
  }

  /** One writer, nothing in its way: one NoFatChain run. */
  createContiguous(clusters: number): number {
    const id = this.core.createFile(`file${++this.seq}.bin`);
    this.core.append(id, clusters);
    return id;
  }

  /**
   * Two files written at once, the usual cause of fragmentation: the new file grows by a
   * piece, then its companion log appends a cluster right after that piece, so the file's
   * next piece has to start further on and its chain becomes a FAT chain of `runs` runs
   * (more if the free space it lands in has holes).
   */
  createFragmented(clusters: number, runs: number): number {
    const n = ++this.seq;
    const id = this.core.createFile(`frag${n}.bin`);
    const log = this.core.createFile(`log${n}.txt`);
    const piece = Math.max(1, Math.floor(clusters / runs));
    for (let r = 0; r < runs; r++) {
      this.core.append(id, r === runs - 1 ? clusters - piece * (runs - 1) : piece);
      if (r < runs - 1) this.core.append(log, 1);
    }
    return id;
  }

  /** A file of runs of the given lengths, in order, a spacer cluster of another file between them (as two writers taking turns leave). */
  createRuns(lengths: number[]): number {
    const n = ++this.seq;
    const id = this.core.createFile(`file${n}.bin`);
    const spacer = this.core.createFile(`spacer${n}.txt`);
    lengths.forEach((len, r) => {
      this.core.append(id, len);
      if (r < lengths.length - 1) this.core.append(spacer, 1);
    });
    return id;
  }

  delete(id: number, policy: DiscardPolicy): DeleteResult {
    const name = this.core.snapshot().files.find((f) => f.id === id)?.name ?? String(id);
    const other = this.core.clone();
    try {
      other.setPolicy(true, policy === DiscardPolicy.Batched ? DiscardPolicy.PerCluster : DiscardPolicy.Batched);
      other.takeEvents();
      other.delete(id);
      const otherPolicyDiscards = discardsOf(other.takeEvents()).length;

      this.core.takeEvents();
      this.core.setPolicy(true, policy);
      this.core.delete(id);
      const events = this.core.takeEvents();
      return { name, policy, events, discards: discardsOf(events), otherPolicyDiscards };
    } finally {
      other.dispose();
    }
  }

  snapshot(): ExfatSnapshot {
    this.core.takeEvents(); // allocation events are not shown yet; keep the buffer small
    return this.core.snapshot();
  }
}
