// An image the learner made in the guest and copied to /mnt/host (the 9p share), read by the
// page and parsed by the inspectors in a worker, on request: the thin fetching half of the
// disk panels, whose drawing halves take the report (and the bytes) as data.
import { useState } from "react";
import type { VmHandle } from "../machine";
import { useWorker } from "../useWorker";
import { inspectClient } from "./inspect-client";
import type { InspectedReport } from "./inspect";

export interface GuestImage<R extends InspectedReport> {
  report: R | null;
  bytes: Uint8Array | null;
  busy: boolean;
  error: string | null;
  /** reads /mnt/host/<file> and inspects it (a report of another filesystem than `fs` is an error) */
  inspect(): Promise<void>;
}

export function useGuestImage<R extends InspectedReport = InspectedReport>(vm: VmHandle | null, file: string, fs?: R["fs"]): GuestImage<R> {
  const worker = useWorker(inspectClient);
  const [got, setGot] = useState<{ report: R; bytes: Uint8Array } | null>(null);
  async function inspect() {
    if (!vm) return;
    // busy and the error are the worker hook's; a failed read leaves nothing shown
    const read = await worker.run(async (client) => {
      const bytes = await vm.readSharedFile(file);
      // requests are copied to the worker, not transferred: the bytes stay here for the drawing
      const report = (await client.inspect(bytes)) as R;
      if (fs && report.fs !== fs) throw new Error(`${file} is a ${report.fs} volume, not ${fs}`);
      return { report, bytes };
    });
    setGot(read ?? null);
  }
  return { report: got?.report ?? null, bytes: got?.bytes ?? null, busy: worker.busy, error: worker.error, inspect };
}
