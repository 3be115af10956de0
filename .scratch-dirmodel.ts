import { loadCoreModule } from "../work/main/web/src/shared/node-load";
import { runDirScript } from "../work/main/web/src/topics/exfat/exfat-dir";
const ops = [
  ...Array.from({ length: 200 }, (_, i) => `+f${i + 1}`),
  ...Array.from({ length: 200 }, (_, i) => i + 1).filter((i) => i % 3 === 0).map((i) => `-f${i}`),
  ...Array.from({ length: 60 }, (_, i) => `+file-with-long-name-${i + 201}`),
];
const m = await loadCoreModule("exfat");
for (const h of [true, false]) { const r = runDirScript(m, h, ops); console.log(h, r.examined, r.dir.clusters ?? ""); r.dir.dispose(); }
