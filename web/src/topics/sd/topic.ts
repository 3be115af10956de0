// The SD card: an SDHCI host and card emulated beside v86 (web/src/vm/machine/devices/), and the model
// of Linux's initialisation of it. C core: wasm/src/sd; lab sd-card.
import { defineTopic } from "../../shared/topic";
import type { TopicAnswers } from "../../shared/answers";
import { SD_PARAMS } from "./params";

export default defineTopic({
  id: "sd",
  title: "SD cards and the MMC core",
  playgrounds: [
    {
      route: "sd",
      title: "SD: from a card in the slot to /dev/mmcblk0",
      blurb: "Pick a card; step through the commands Linux sends it, the card's state machine and the registers it answers with.",
      layer: "driver",
      params: SD_PARAMS,
      load: () => import("./PlaySd").then((m) => m.PlaySd),
    },
  ],
  views: [
    {
      id: "sd-init",
      title: "the SD slot (insert, eject) and the kernel's initialisation of the card beside the model's, request for request, then the card's state and its CID and CSD as the kernel's records show them beside the model's",
      params: {},
      load: () => import("./lab-views").then((m) => m.SdInitLab),
    },
  ],
  answers: {
    specs: [
      {
        id: "card-sectors",
        summary: "a card's capacity in 512-byte sectors, from the CSD the model's card sends (CMD9)",
        params: { card_kib: "the card's size in KiB", type: "sdsc, sdhc or v1" },
      },
      {
        id: "read-arg",
        summary: "the address a read of the card's last <end_kib> KiB carries in its command (CMD17/CMD18): a byte address for a version 1 CSD, a 512-byte block's for version 2",
        params: { card_kib: "the card's size in KiB", type: "sdsc, sdhc or v1", end_kib: "how many KiB before the card's end the read starts" },
      },
      {
        id: "request-us",
        summary: "the µs the emulated card takes for one read or write command (sd-timing.ts, A1's figures at 25 MHz on 4 lines), from its command to the end of its busy",
        params: { kib: "the request's size in KiB (1 to 1024)", write: "1 a write, 0 a read", random: "1 a write that does not continue the last one, 0 one that does (reads: either)" },
      },
    ],
    load: () => import("./answers").then((m) => m.topicAnswers as TopicAnswers),
  },
  guestWork: ["modprobe -a sdhci-pci mmc_block; sdcard insert 64M; for i in $(seq 100); do [ -b /dev/mmcblk0 ] && break; sleep 0.1; done; dd if=/dev/zero of=/dev/mmcblk0 bs=1M count=4 oflag=direct 2>/dev/null; dd if=/dev/mmcblk0 of=/dev/null bs=1M count=8 iflag=direct 2>/dev/null"],
  cli: [{ name: "sd", synopsis: "[--card sdhc|sdsc|v1] [--size 64M] [--json]", summary: "the commands Linux sends to initialise an SD card, and the card's states", module: "cli.ts" }],
});
