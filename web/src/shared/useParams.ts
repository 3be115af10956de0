// A playground's parameters as the learner meets them: each field keeps what was typed, a value
// that does not fit its declaration (the topic manifest's range) is shown as a problem next to
// the field and in the link, and nothing runs until every field is valid; no value is ever
// replaced by another. The link holds what was typed, so a shared link reproduces the page,
// problems included.
import { createContext, useCallback, useContext, useMemo, useState } from "react";
import { checkParam, type ParamSchema, type ParamValues } from "./params";

export interface ParamsState<S extends ParamSchema> {
  /** each field's text, as typed (or as the link gave it) */
  raw: Record<keyof S & string, string>;
  /** what is wrong with a field's text (its own range, or a rule between fields) */
  errors: Partial<Record<keyof S & string, string>>;
  /** the checked values; a field with a problem keeps its last good value (or the default) */
  values: ParamValues<S>;
  valid: boolean;
  /** the link's parameters that are not valid, in words, until the learner changes them */
  linkProblems: string[];
  set(name: keyof S & string, text: string): void;
}

/**
 * Whether a playground writes its parameters into the page's link: not when it is a web
 * component in another site's page (embed/element.tsx), whose URL is not fslab's.
 */
export const WritesLink = createContext(true);

/**
 * `route`: the page's route (#/play/<route>), rewritten as fields change. `rules`: checks
 * between fields on valid values (e.g. pieces at most the clusters), by field name.
 */
export function useParams<S extends ParamSchema>(
  schema: S,
  query: string,
  route: string,
  rules?: (v: ParamValues<S>) => Partial<Record<keyof S & string, string>>,
): ParamsState<S> {
  type K = keyof S & string;
  const names = Object.keys(schema) as K[];
  const [raw, setRaw] = useState<Record<K, string>>(() => {
    const q = new URLSearchParams(query);
    return Object.fromEntries(names.map((n) => [n, q.get(n) ?? String(schema[n].default)])) as Record<K, string>;
  });
  const [good, setGood] = useState<ParamValues<S>>(() => Object.fromEntries(names.map((n) => [n, schema[n].default])) as ParamValues<S>);
  const { errors, values } = useMemo(() => {
    const errors: Partial<Record<K, string>> = {};
    const values = { ...good } as Record<string, number | string>;
    for (const n of names) {
      const c = checkParam(schema[n], raw[n]);
      if ("error" in c) errors[n] = c.error;
      else values[n] = c.value;
    }
    if (!Object.keys(errors).length && rules) Object.assign(errors, rules(values as ParamValues<S>));
    return { errors, values: values as ParamValues<S> };
  }, [raw, good]); // eslint-disable-line react-hooks/exhaustive-deps
  // the link's bad parameters as given, said until each field is put right
  const [fromLink] = useState(() => new Map(names.flatMap((n) => (errors[n] && new URLSearchParams(query).has(n) ? [[n, `${n}=${raw[n]}: ${errors[n]}`] as const] : []))));
  const linkProblems = [...fromLink].filter(([n]) => errors[n] && raw[n] === new URLSearchParams(query).get(n)).map(([, text]) => text);
  const writesLink = useContext(WritesLink);
  const set = useCallback(
    (name: K, text: string) => {
      setRaw((r) => {
        const next = { ...r, [name]: text };
        // in an iframe (#/embed/<route>) the link stays an embed link
        const prefix = location.hash.startsWith("#/embed/") ? "#/embed/" : "#/play/";
        if (writesLink) history.replaceState(null, "", `${prefix}${route}?${new URLSearchParams(next as Record<string, string>).toString()}`);
        return next;
      });
      const c = checkParam(schema[name], text);
      if ("value" in c) setGood((g) => ({ ...g, [name]: c.value }));
    },
    [schema, route, writesLink],
  );
  return { raw, errors, values, valid: Object.keys(errors).length === 0, linkProblems, set };
}
