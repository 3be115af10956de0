// fslab-embed.js: fslab's views, playgrounds and labs as custom elements for another site's
// pages (docs/embedding.md).
//
//   <script type="module" src="https://labs.example.edu/fslab/fslab-embed.js"></script>
//   <fslab-view view="exfat" clusters="256" runs="4" batch="0"></fslab-view>
//   <fslab-lab lab="exfat-discard"></fslab-lab>
//
// Each renders in its own shadow root with fslab's styles, loads its code only when scrolled
// into view, takes its parameters as attributes (the playground link's names; a dash may stand
// for an underscore: fifo-batch), and says which attribute is wrong when one is. The site's
// files (labs/, vm/, the wasm cores, the workers) are found beside this script, whatever page
// loaded it: that site must send Access-Control-Allow-Origin for them.
import { Component, Suspense, lazy, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import css from "../styles.css?inline";
import { PLAYGROUNDS, VIEWS, playground, view } from "../topics";
import { lazyOf } from "../shared/lazy";
import { checkParam } from "../shared/params";
import { setSiteBase } from "../shared/site";
import { WritesLink } from "../shared/useParams";

setSiteBase(new URL(".", import.meta.url).href);

const LabPage = lazy(() => import("../pages/LabPage").then((m) => ({ default: m.LabPage })));
const EMPTY_LIVE = { events: new Uint32Array(0), stats: null, lines: [] as string[], version: 0 };
/** attributes of any element, never a parameter */
const GLOBAL = new Set(["view", "lab", "id", "class", "style", "title", "lang", "dir", "hidden", "tabindex", "slot", "part"]);

/** What the views' lazy chunks add to the document's head (their CSS), mirrored into each shadow root. */
function mirrorSiteStyles(root: ShadowRoot): () => void {
  const site = new URL(".", import.meta.url).href;
  const copy = (el: Element) => {
    if (el instanceof HTMLLinkElement && el.rel === "stylesheet" && el.href.startsWith(site) && !root.querySelector(`link[href="${el.href}"]`))
      root.appendChild(el.cloneNode());
  };
  document.head.querySelectorAll("link[rel=stylesheet]").forEach(copy);
  const mo = new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((n) => n instanceof Element && copy(n))));
  mo.observe(document.head, { childList: true });
  return () => mo.disconnect();
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  state = { error: null as string | null };
  static getDerivedStateFromError(e: unknown) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  render() {
    return this.state.error ? <p className="error">fslab could not show this: {this.state.error}</p> : this.props.children;
  }
}

abstract class FslabElement extends HTMLElement {
  private root: Root | null = null;
  private shadow: ShadowRoot | null = null;
  private seen: IntersectionObserver | null = null;
  private attrs: MutationObserver | null = null;
  private unmirror: (() => void) | null = null;
  private visible = false;

  connectedCallback(): void {
    if (!this.shadow) {
      this.shadow = this.attachShadow({ mode: "open" });
      const style = document.createElement("style");
      // the site's styles, and the element sized by its box (block, never wider than it)
      style.textContent = `${css}\n:host{display:block;max-width:100%;overflow-x:auto;contain:content}`;
      this.shadow.appendChild(style);
      const mount = document.createElement("div");
      mount.className = "embed";
      this.shadow.appendChild(mount);
      this.root = createRoot(mount);
    }
    this.unmirror = mirrorSiteStyles(this.shadow);
    this.root!.render(<p className="muted">{this.placeholder()}</p>);
    // the view's own code loads when it comes into view
    this.seen = new IntersectionObserver((es) => {
      if (es.some((e) => e.isIntersecting) && !this.visible) {
        this.visible = true;
        this.seen?.disconnect();
        this.dispatchEvent(new CustomEvent("fslab-visible", { bubbles: true, composed: true }));
        this.draw();
      }
    });
    this.seen.observe(this);
    this.attrs = new MutationObserver(() => this.visible && this.draw());
    this.attrs.observe(this, { attributes: true });
  }

  disconnectedCallback(): void {
    this.seen?.disconnect();
    this.attrs?.disconnect();
    this.unmirror?.();
    // unmount after the current render, so a node moved in the page can come back
    queueMicrotask(() => {
      if (!this.isConnected) {
        this.root?.unmount();
        this.root = null;
        this.shadow = null;
        this.visible = false;
      }
    });
  }

  protected abstract placeholder(): string;
  protected abstract content(): ReactNode;

  private draw(): void {
    this.root?.render(
      <Boundary key={Math.random()}>
        <WritesLink.Provider value={false}>
          <Suspense fallback={<p className="muted">Loading…</p>}>{this.content()}</Suspense>
        </WritesLink.Provider>
      </Boundary>,
    );
  }

  protected error(text: string): ReactNode {
    return (
      <p className="error" role="alert" data-testid="embed-error">
        {`<${this.localName}>: ${text}`}
      </p>
    );
  }
}

class FslabView extends FslabElement {
  protected placeholder() {
    return `fslab: ${this.getAttribute("view") ?? "a view"} (loads when scrolled into view)`;
  }

  protected content(): ReactNode {
    const id = this.getAttribute("view");
    if (!id) return this.error(`say which view: view="…" (one of ${[...PLAYGROUNDS.map((p) => p.route), ...VIEWS.map((v) => v.id)].join(", ")})`);
    const p = playground(id);
    const v = view(id);
    if (!p && !v) return this.error(`there is no view "${id}" (playgrounds: ${PLAYGROUNDS.map((x) => x.route).join(", ")}; lab views: ${VIEWS.map((x) => x.id).join(", ")})`);
    const schema = p ? p.params : v!.params;
    const query = new URLSearchParams();
    const values: Record<string, number | string> = {};
    for (const a of this.getAttributeNames()) {
      if (GLOBAL.has(a) || a.startsWith("data-") || a.startsWith("aria-")) continue;
      const name = a in schema ? a : a.replace(/-/g, "_");
      const spec = schema[name];
      if (!spec) return this.error(`"${id}" has no parameter ${a} (it has ${Object.keys(schema).join(", ") || "none"})`);
      const raw = this.getAttribute(a) ?? "";
      const c = checkParam(spec, raw);
      if ("error" in c) return this.error(`${a}="${raw}": ${c.error}`);
      query.set(name, raw);
      values[name] = c.value;
    }
    if (p) {
      const Page = lazyOf(p.load);
      return <Page query={query.toString()} />;
    }
    const View = lazyOf(v!.load);
    return <View live={EMPTY_LIVE} vm={null} params={values} />;
  }
}

class FslabLab extends FslabElement {
  protected placeholder() {
    return `fslab lab: ${this.getAttribute("lab") ?? "?"} (loads when scrolled into view)`;
  }

  protected content(): ReactNode {
    const id = this.getAttribute("lab");
    if (!id || !/^[a-z0-9][a-z0-9-]*$/.test(id)) return this.error(`say which lab: lab="…" (a lab id such as exfat-discard), not ${JSON.stringify(id)}`);
    return <LabPage id={id} embed={{ startRequest: 0, resetRequest: 0, onStepPassed: (step, title) => this.dispatchEvent(new CustomEvent("fslab-step-passed", { detail: { lab: id, step, title }, bubbles: true, composed: true })) }} />;
  }
}

if (!customElements.get("fslab-view")) customElements.define("fslab-view", FslabView);
if (!customElements.get("fslab-lab")) customElements.define("fslab-lab", FslabLab);
