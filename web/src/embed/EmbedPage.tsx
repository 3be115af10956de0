// What an iframe shows: one playground, one lab view, or one lab, without the site's header.
//   #/embed/<playground>?<params>   a playground, its link parameters in the query
//   #/embed/view/<view id>          a lab view on its own (its model parts; no VM)
//   #/embed/lab/<lab id>            a lab, its VM behind a "Start the Linux VM" button
// The host page drives it with the messages of messages.ts (channel.ts checks their origin).
import { Suspense, lazy, useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { playground, view } from "../topics";
import { lazyOf } from "../shared/lazy";
import { checkParam } from "../shared/params";
import { EmbedChannel } from "./channel";
import type { HostMessage } from "./messages";

const LabPage = lazy(() => import("../pages/LabPage").then((m) => ({ default: m.LabPage })));
const loading = <p className="muted">Loading…</p>;
const EMPTY_LIVE = { events: new Uint32Array(0), stats: null, lines: [] as string[], version: 0 };

/**
 * A link to another page of the site (a lab's "next" link, #/play/exfat) opens the whole site
 * in a new tab: followed in the frame, it put the site's page, header and all, in place of the
 * embed inside the author's page, and the reader's way back was the browser's Back button.
 */
function openSiteLinksInNewTab(e: MouseEvent<HTMLDivElement>) {
  const a = (e.target as Element).closest?.("a[href^='#/']");
  if (!a || e.defaultPrevented || e.button !== 0) return;
  e.preventDefault();
  window.open(new URL(a.getAttribute("href")!, location.href).href, "_blank", "noopener");
}

function useChannel(onMessage: (m: HostMessage) => void): EmbedChannel {
  const handler = useRef(onMessage);
  handler.current = onMessage;
  const channel = useMemo(() => new EmbedChannel((m) => handler.current(m)), []);
  useEffect(() => () => channel.close(), [channel]);
  return channel;
}

export function EmbedPage({ route }: { route: string }) {
  const lab = route.match(/^\/embed\/lab\/([\w-]+)$/);
  const v = route.match(/^\/embed\/view\/([\w-]+)(?:\?(.*))?$/);
  const play = route.match(/^\/embed\/([\w-]+)(?:\?(.*))?$/);
  if (lab) return <EmbedLab id={lab[1]} />;
  if (v) return <EmbedView id={v[1]} query={v[2] ?? ""} />;
  if (play && playground(play[1])) return <EmbedPlayground route={play[1]} query={play[2] ?? ""} />;
  return <p className="error">fslab has nothing to embed at {route}: an embed is #/embed/&lt;playground&gt;, #/embed/view/&lt;view&gt; or #/embed/lab/&lt;lab&gt;.</p>;
}

function EmbedPlayground({ route, query: initial }: { route: string; query: string }) {
  const spec = playground(route)!;
  const [state, setState] = useState({ query: initial, n: 0 });
  const box = useRef<HTMLDivElement>(null);
  const channel = useChannel((m) => {
    if (m.type === "ping") void channel.start({ kind: "playground", id: route, params: Object.fromEntries(new URLSearchParams(state.query)) });
    else if (m.type === "reset") setState((s) => ({ query: "", n: s.n + 1 }));
    else if (m.type === "set") {
      const q = new URLSearchParams(state.query);
      const problems: string[] = [];
      for (const [k, val] of Object.entries(m.params)) {
        const p = spec.params[k];
        if (!p) problems.push(`${k}: ${route} has no such parameter (it has ${Object.keys(spec.params).join(", ")})`);
        else {
          const c = checkParam(p, String(val));
          if ("error" in c) problems.push(`${k}: ${c.error}`);
          q.set(k, String(val));
        }
      }
      setState((s) => ({ query: q.toString(), n: s.n + 1 }));
      channel.post({ fslab: 1, type: "params", params: Object.fromEntries(q), problems });
    }
  });
  useEffect(() => void channel.start({ kind: "playground", id: route, params: Object.fromEntries(new URLSearchParams(initial)) }), [channel]);
  // a playground's answer, once revealed: each shows it in a .reveal status with its numbers as data-*
  useEffect(() => {
    let last = "";
    const seen = () => {
      const r = box.current?.querySelector<HTMLElement>(".reveal");
      const text = r?.textContent?.trim() ?? "";
      if (!r || !text || text === last) return;
      last = text;
      channel.post({ fslab: 1, type: "revealed", id: route, text, data: { ...r.dataset } as Record<string, string> });
    };
    const mo = new MutationObserver(seen);
    mo.observe(box.current!, { subtree: true, childList: true, characterData: true, attributes: true });
    return () => mo.disconnect();
  }, [channel]);
  const Page = lazyOf(spec.load);
  return (
    <div className="embed" onClickCapture={openSiteLinksInNewTab} ref={box} data-embed={route}>
      <Suspense fallback={loading}>
        <Page key={state.n} query={state.query} />
      </Suspense>
    </div>
  );
}

function EmbedView({ id, query }: { id: string; query: string }) {
  const spec = view(id);
  // the view's parameters from the link, each checked against its range; a bad one is named
  const params: Record<string, number | string> = {};
  const problems: string[] = [];
  for (const [k, raw] of new URLSearchParams(query)) {
    const p = spec?.params[k];
    if (!p) problems.push(`${k}: "${id}" has no such parameter`);
    else {
      const c = checkParam(p, raw);
      if ("error" in c) problems.push(`${k}=${raw}: ${c.error}`);
      else params[k] = c.value;
    }
  }
  const channel = useChannel((m) => m.type === "ping" && void channel.start({ kind: "view", id, params: {} }));
  useEffect(() => void channel.start({ kind: "view", id, params: {} }), [channel]);
  if (!spec) return <p className="error">fslab has no view "{id}".</p>;
  if (problems.length) return <p className="error" role="alert">{problems.join("; ")}</p>;
  const View = lazyOf(spec.load);
  return (
    <div className="embed" onClickCapture={openSiteLinksInNewTab} data-embed={id}>
      {/* a framed page is a page too: a screen reader lists its level-one heading (axe: page-has-heading-one) */}
      <h1 className="visually-hidden">fslab: {spec.title}</h1>
      <Suspense fallback={loading}>
        <View live={EMPTY_LIVE} vm={null} params={params} />
      </Suspense>
    </div>
  );
}

function EmbedLab({ id }: { id: string }) {
  const [start, setStart] = useState(0);
  const [reset, setReset] = useState(0);
  const channel = useChannel((m) => {
    if (m.type === "ping") void channel.start({ kind: "lab", id, params: {} });
    else if (m.type === "start") setStart((n) => n + 1);
    else if (m.type === "reset") setReset((n) => n + 1);
  });
  useEffect(() => void channel.start({ kind: "lab", id, params: {} }), [channel]);
  return (
    <div className="embed" onClickCapture={openSiteLinksInNewTab} data-embed={`lab/${id}`}>
      <Suspense fallback={loading}>
        <LabPage
          id={id}
          embed={{ startRequest: start, resetRequest: reset, onStepPassed: (step, title) => channel.post({ fslab: 1, type: "step-passed", lab: id, step, title }) }}
        />
      </Suspense>
    </div>
  );
}
