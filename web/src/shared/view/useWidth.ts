// The width an element has on the page, followed as it changes (a phone turned, a panel
// resized), for views that draw at their real size rather than scale a fixed drawing: scaled
// down to a phone's width, a 420-unit chart's 10-unit labels came out 5 px tall.
import { useLayoutEffect, useRef, useState, type RefObject } from "react";

/** A ref to put on the element, and its content width in CSS px (at most `max`; `initial` until measured). */
export function useWidth<T extends HTMLElement>(initial: number, max = Infinity): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current!;
    // measured before the first paint: the drawing never shows at `initial` first (a chart 420
    // wide for a moment on a 390 px phone); the observer follows later changes
    const cs = getComputedStyle(el);
    const content = el.clientWidth - parseFloat(cs.paddingLeft || "0") - parseFloat(cs.paddingRight || "0");
    if (content > 0) setWidth(Math.min(content, max));
    const ro = new ResizeObserver(([e]) => setWidth(Math.min(e.contentRect.width, max)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [max]);
  return [ref, width];
}
