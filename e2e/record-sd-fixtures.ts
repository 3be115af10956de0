// Records web/src/topics/sd/fixtures/<type>-init.trace again from the guest's kernel: the mmc events of the
// initialisation of each card type (RECORDED_CARD_BYTES, the model's default serial), as
// `cat trace` prints them after modprobe sdhci-pci mmc_block. Run after a guest rebuild or a
// change to the emulated card: node --import tsx e2e/record-sd-fixtures.ts (beside the e2e
// tests, which may use the guest's Node host; the sd topic may not)
import { writeFileSync } from "node:fs";
import { NodeVm } from "../web/src/vm/node/node-vm";
import { CARD_TYPES } from "../web/src/shared/sd-card-spec";
import { RECORDED_CARD_BYTES } from "../web/src/topics/sd/sd-trace";

/** the serial the model's card has when none is given (wasm/src/sd/card.c) */
const MODEL_SERIAL = 0x0f5ab001;

for (const type of CARD_TYPES) {
  const vm = new NodeVm();
  try {
    await vm.boot({ sd: { type, size: RECORDED_CARD_BYTES[type], serial: MODEL_SERIAL } });
    const r = await vm.run(
      `modprobe mmc_core && T=/sys/kernel/tracing && echo 1 > $T/events/mmc/mmc_request_start/enable && echo 1 > $T/events/mmc/mmc_request_done/enable &&
       modprobe sdhci-pci && modprobe mmc_block && for i in $(seq 100); do [ -b /dev/mmcblk0 ] && break; sleep 0.1; done; [ -b /dev/mmcblk0 ] && cat $T/trace`,
      120_000,
    );
    if (r.status !== 0) throw new Error(`${type}: ${r.output}`);
    const lines = r.output.split("\n").flatMap((l) => {
      const m = l.match(/(mmc_request_(?:start|done): .*)$/);
      return m ? [m[1].replace(/\r$/, "")] : [];
    });
    writeFileSync(new URL(`../web/src/topics/sd/fixtures/${type}-init.trace`, import.meta.url), lines.join("\n") + "\n");
    console.log(`fixtures/${type}-init.trace: ${lines.length} events`);
  } finally {
    await vm.destroy();
  }
}
