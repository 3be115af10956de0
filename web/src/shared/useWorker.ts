// A worker's life in a component: started on mount, terminated on unmount, with the state a
// page shows around a request (busy, the last error). `run` wraps one or more requests.
import { useCallback, useEffect, useRef, useState } from "react";

export interface WorkerState<C> {
  /** null until mounted (and in the first render) */
  client: C | null;
  busy: boolean;
  error: string | null;
  /** runs `f` with the client: busy while it runs; its error, if any, becomes `error` (and undefined is returned) */
  run<T>(f: (client: C) => Promise<T>): Promise<T | undefined>;
  setError(error: string | null): void;
}

/** `start` makes the client (e.g. exfatClient from a topic's *-client.ts) */
export function useWorker<C extends { terminate(): void }>(start: () => C): WorkerState<C> {
  const [client, setClient] = useState<C | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<C | null>(null);
  const startRef = useRef(start);
  useEffect(() => {
    const c = startRef.current();
    ref.current = c;
    setClient(c);
    return () => {
      c.terminate();
      ref.current = null;
    };
  }, []);
  const run = useCallback(async <T,>(f: (c: C) => Promise<T>): Promise<T | undefined> => {
    const c = ref.current;
    if (!c) return undefined;
    setBusy(true);
    setError(null);
    try {
      return await f(c);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { client, busy, error, run, setError };
}
