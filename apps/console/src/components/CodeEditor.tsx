import { useMemo } from 'react';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { javascript } from '@codemirror/lang-javascript';

/** JavaScript with syntax highlighting (CodeMirror); loaded only by the pages that edit code. */
export default function CodeEditor({ value, onChange, label, readOnly }: { value: string; onChange: (v: string) => void; label: string; readOnly?: boolean }) {
  // the editable element itself carries the name screen readers announce (the wrapper's label would not reach it)
  const extensions = useMemo(() => [javascript(), EditorView.contentAttributes.of({ 'aria-label': label })], [label]);
  return (
    <div className="code-editor">
      <CodeMirror
        value={value}
        onChange={onChange}
        extensions={extensions}
        height="240px"
        readOnly={readOnly}
        basicSetup={{ foldGutter: false }}
        theme={
          document.documentElement.dataset['theme'] === 'dark' ||
          (!document.documentElement.dataset['theme'] && matchMedia('(prefers-color-scheme: dark)').matches)
            ? 'dark'
            : 'light'
        }
      />
    </div>
  );
}
