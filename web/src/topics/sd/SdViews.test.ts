// @vitest-environment jsdom
// The state machine and the register tables as the page draws them: a difference marked in
// colour and in words, the picture's text saying what it shows. (The rows come from the kernel's
// recorded answers in sd-compare.test.ts; here they are given.)
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CSD_FIELDS, compareFields } from "./sd-compare";
import type { Csd } from "./sd-core";
import { SdRegister } from "./SdRegisters";
import { SdStates } from "./SdStates";

const render = (el: ReturnType<typeof createElement>) => {
  const d = document.createElement("div");
  d.innerHTML = renderToStaticMarkup(el);
  return d;
};

describe("the register table", () => {
  const csd: Csd = { structure: 1, taac: 0xe, tranSpeedHz: 25e6, cmdclass: 0x5b5, readBlLen: 9, cSize: 127, cSizeMult: 0, sectors: 131072 };
  it("marks the fields that differ, in colour and in words", () => {
    const rows = compareFields(CSD_FIELDS, [{ ...csd, cSize: 255, sectors: 262144 }, csd]);
    const d = render(createElement(SdRegister, { caption: "CSD", sides: ["kernel", "model"], rows }));
    expect([...d.querySelectorAll("tr.differs th")].map((th) => th.textContent)).toEqual(["C_SIZE", "capacity"]);
    expect(d.querySelector("tr.differs")!.textContent).toBe("C_SIZE255127≠ differs");
    expect(d.querySelector("table")!.getAttribute("aria-label")).toBe("CSD: 2 fields differ");
    expect(d.querySelector("table")!.getAttribute("data-differ")).toBe("2");
  });
  it("one side: no comparison column", () => {
    const d = render(createElement(SdRegister, { caption: "CSD", sides: ["model"], rows: compareFields(CSD_FIELDS, [csd]) }));
    expect([...d.querySelectorAll("thead th")].map((th) => th.textContent)).toEqual(["field", "model"]);
    expect(d.querySelectorAll("tr.differs")).toHaveLength(0);
  });
});

describe("the state machine drawn from either side", () => {
  const svg = (props: Parameters<typeof SdStates>[0]) => render(createElement(SdStates, props)).querySelector("svg")!;
  it("lights the state given; draws only transitions between two known states in a row", () => {
    const kernel = svg({ states: [undefined, "ident", undefined, "stby", "tran"], position: 4, who: "the kernel's records" });
    expect(kernel.querySelector('[data-current="yes"]')!.getAttribute("data-state")).toBe("tran");
    expect(kernel.querySelectorAll("line")).toHaveLength(1); // stby to tran; not ident to stby over an unknown
    expect(kernel.getAttribute("aria-label")).toBe("the kernel's records: the card is in tran; transitions seen: stby to tran");
  });
  it("marks a lit state that differs; rings one older than the position", () => {
    const differ = svg({ states: ["idle", "idle"], position: 1, current: "stby", differ: true });
    expect(differ.getAttribute("data-differ")).toBe("yes");
    expect(differ.getAttribute("aria-label")).toContain("not as the other side says");
    expect(differ.querySelector('[data-current="yes"] circle')!.getAttribute("fill")).toBe("#D55E00");
    const stale = svg({ states: ["ident", undefined], position: 1, current: "ident", stale: true });
    expect(stale.querySelector('[data-current="yes"] circle')!.getAttribute("stroke-dasharray")).toBe("5 3");
    expect(stale.getAttribute("aria-label")).toContain("(the last state reported)");
  });
});
