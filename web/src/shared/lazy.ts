// A manifest's loader as a React component that loads on first render: one lazy component per
// loader, kept, so a route or view that re-renders does not load again.
import { lazy, type ComponentType, type LazyExoticComponent } from "react";

// keyed by the loader; each value is the lazy component of its own loader's props
const made = new Map<object, unknown>();

export function lazyOf<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  let c = made.get(load) as LazyExoticComponent<ComponentType<P>> | undefined;
  if (!c) {
    c = lazy(() => load().then((component) => ({ default: component })));
    made.set(load, c);
  }
  return c;
}
