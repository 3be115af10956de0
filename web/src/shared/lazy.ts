// A manifest's loader as a React component that loads on first render: one lazy component per
// loader, kept, so a route or view that re-renders does not load again.
import { lazy, type ComponentType, type LazyExoticComponent } from "react";

const made = new Map<() => Promise<ComponentType<any>>, LazyExoticComponent<ComponentType<any>>>();

export function lazyOf<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  let c = made.get(load);
  if (!c) {
    c = lazy(() => load().then((component) => ({ default: component })));
    made.set(load, c);
  }
  return c as LazyExoticComponent<ComponentType<P>>;
}
