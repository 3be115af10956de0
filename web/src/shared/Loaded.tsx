// A route's page from its own chunk, rendered the moment the chunk is there.
//
// Not React.lazy under Suspense: React 19 holds back content that replaces a Suspense
// fallback until 300 ms after the fallback appeared (its fallback throttle). A lab page whose
// chunk arrived 60 ms after the fallback still rendered at 300 ms, and its VM started that
// much later; a learner waits for it on every visit.
import { useEffect, useState, type ComponentType, type ReactNode } from "react";

// keyed by the loader; each value is the component its own loader gave
const loaded = new Map<object, unknown>();

export function Loaded<P extends object>({ load, props, fallback }: { load: () => Promise<ComponentType<P>>; props: P; fallback: ReactNode }) {
  const [page, setPage] = useState<{ C: ComponentType<P> } | null>(() => {
    const C = loaded.get(load) as ComponentType<P> | undefined;
    return C ? { C } : null;
  });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (page) return;
    let live = true;
    load().then(
      (C) => {
        loaded.set(load, C);
        if (live) setPage({ C });
      },
      (e) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => void (live = false);
  }, [load, page]);
  if (error) return <p className="error">This page could not be loaded ({error}). Reload to try again.</p>;
  return page ? <page.C {...props} /> : <>{fallback}</>;
}
