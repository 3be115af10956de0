// @vitest-environment jsdom
// Lab Markdown as a hostile author could write it: nothing that runs survives the renderer.
import { describe, expect, it } from "vitest";
import { renderInlineMarkdown, renderMarkdown } from "./markdown";

const dom = (html: string) => {
  const d = document.createElement("div");
  d.innerHTML = html;
  return d;
};

describe("renderMarkdown", () => {
  it("keeps what a lab needs: emphasis, code, tables, images and links to other sites", () => {
    const d = dom(renderMarkdown("Some *text*, `code`, ![a diagram](https://example.org/d.png) and [the commit](https://git.kernel.org/x).\n\n| a | b |\n|---|---|\n| 1 | 2 |"));
    expect(d.querySelector("em")?.textContent).toBe("text");
    expect(d.querySelector("code")?.textContent).toBe("code");
    expect(d.querySelector("img")?.getAttribute("src")).toBe("https://example.org/d.png");
    const a = d.querySelector("a")!;
    expect(a.getAttribute("href")).toBe("https://git.kernel.org/x");
    expect(a.getAttribute("rel")).toBe("noopener noreferrer");
    expect(d.querySelectorAll("td")).toHaveLength(2);
  });

  it.each([
    ["a script element", "<script>window.ran = 1</script>"],
    ["an onerror attribute", '<img src="x" onerror="window.ran = 1">'],
    ["an onload on svg", '<svg onload="window.ran = 1"><circle r="1"/></svg>'],
    ["a javascript: link in Markdown", "[click](javascript:window.ran=1)"],
    ["a javascript: link in HTML", '<a href="javascript:window.ran=1">click</a>'],
    ["an entity-hidden javascript: link", '<a href="jav&#x09;ascript:window.ran=1">click</a>'],
    ["an iframe", '<iframe src="https://evil.example/"></iframe>'],
    ["a style element", "<style>body{display:none}</style>"],
    ["a form", '<form action="https://evil.example/"><button>go</button></form>'],
    ["an object", '<object data="x.swf"></object>'],
  ])("removes %s", (_what, source) => {
    const html = renderMarkdown(`Text before.\n\n${source}\n\nText after.`);
    const d = dom(html);
    expect(d.querySelector("script, iframe, style, form, object, embed, button")).toBeNull();
    for (const el of d.querySelectorAll("*")) {
      for (const attr of el.getAttributeNames()) expect(attr.startsWith("on"), `${el.tagName} ${attr}`).toBe(false);
      const url = el.getAttribute("href") ?? el.getAttribute("src") ?? "";
      expect(url.replace(/\s/g, "").toLowerCase().startsWith("javascript:"), url).toBe(false);
    }
    expect(d.textContent).toContain("Text before.");
    expect(d.textContent).toContain("Text after.");
  });
});

describe("renderInlineMarkdown (a predict question, a lab summary)", () => {
  it("renders `code`, emphasis and links, with no paragraph around them", () => {
    const html = renderInlineMarkdown("How many requests will `rm /mnt/x/big` send with *batch_discard* at 0? See [the patch](https://git.kernel.org/x).");
    const d = dom(html);
    expect(html.startsWith("<p>")).toBe(false);
    expect(d.querySelector("code")?.textContent).toBe("rm /mnt/x/big");
    expect(d.querySelector("em")?.textContent).toBe("batch_discard");
    expect(d.querySelector("a")?.getAttribute("rel")).toBe("noopener noreferrer");
    expect(d.textContent).not.toContain("`");
  });

  it.each([
    ["a script element", "<script>window.ran = 1</script>q"],
    ["an onerror attribute", '<img src="x" onerror="window.ran = 1">'],
    ["a javascript: link", "[click](javascript:window.ran=1)"],
    ["a block element", "<div>a</div><table><tr><td>b</td></tr></table><iframe src=x></iframe>"],
  ])("keeps %s out: text-level elements only", (_what, source) => {
    const d = dom(renderInlineMarkdown(`Before ${source} after`));
    expect(d.querySelector("script, img, iframe, div, table, p")).toBeNull();
    for (const el of d.querySelectorAll("*")) {
      for (const attr of el.getAttributeNames()) expect(attr.startsWith("on")).toBe(false);
      expect((el.getAttribute("href") ?? "").toLowerCase().startsWith("javascript:")).toBe(false);
    }
    expect(d.textContent).toContain("Before");
    expect(d.textContent).toContain("after");
  });
});

describe("the rendered texts kept", () => {
  it("give a text's block and inline renderings apart, and the same HTML as before it was kept", () => {
    const text = "# Title with `code` <script>window.ran = 1</script>";
    const block = renderMarkdown(text);
    const inline = renderInlineMarkdown(text);
    expect(dom(block).querySelector("h1")).not.toBeNull();
    expect(dom(inline).querySelector("h1")).toBeNull();
    expect(renderMarkdown(text)).toBe(block);
    expect(renderInlineMarkdown(text)).toBe(inline);
    // many other texts later (more than are kept), the first is rendered again, the same
    for (let i = 0; i < 300; i++) expect(renderMarkdown(`step ${i}`)).toContain(`step ${i}`);
    expect(renderMarkdown(text)).toBe(block);
    expect(block).not.toContain("script");
  });
});
