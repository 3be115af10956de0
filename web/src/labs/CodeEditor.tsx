// The code step's editor: CodeMirror 6 with C highlighting, line numbers, undo, and the
// compiler's errors marked at their lines. Loaded only when a code step opens (its own chunk).
// Keyboard: Tab and Shift+Tab leave the editor (CodeMirror binds neither by default, so there is
// no focus trap); Ctrl+] and Ctrl+[ indent and dedent.
import { useEffect, useRef } from "react";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentMore, indentLess } from "@codemirror/commands";
import { defaultHighlightStyle, indentUnit, syntaxHighlighting, bracketMatching } from "@codemirror/language";
import { cpp } from "@codemirror/lang-cpp";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import type { CompileMessage } from "./code-grade";

export interface CodeEditorProps {
  value: string;
  onChange(text: string): void;
  /** the last build's messages; those with a line are marked there */
  messages: readonly CompileMessage[];
  label: string;
}

function diagnostics(view: EditorView, messages: readonly CompileMessage[]): Diagnostic[] {
  const doc = view.state.doc;
  return messages
    .filter((m) => m.line !== null && m.line >= 1 && m.line <= doc.lines)
    .map((m) => {
      const line = doc.line(m.line!);
      return { from: line.from, to: line.to, severity: m.severity, message: m.message };
    });
}

export default function CodeEditor({ value, onChange, messages, label }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          indentUnit.of("\t"),
          EditorState.tabSize.of(8),
          cpp(),
          syntaxHighlighting(defaultHighlightStyle),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap, { key: "Mod-]", run: indentMore }, { key: "Mod-[", run: indentLess }]),
          EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true" }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
  }, []);

  // a new text from outside (the guest's file reloaded, the starter again): replace the document
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const v = view.current;
    if (v) v.dispatch(setDiagnostics(v.state, diagnostics(v, messages)));
  }, [messages]);

  return <div className="code-editor" ref={host} data-testid="code-editor" />;
}
