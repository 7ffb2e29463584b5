import CodeMirror from '@uiw/react-codemirror';
import { javascript } from '@codemirror/lang-javascript';

const extensions = [javascript()];

/** JavaScript with syntax highlighting (CodeMirror); loaded only by the pages that edit code. */
export default function CodeEditor({ value, onChange, label, readOnly }: { value: string; onChange: (v: string) => void; label: string; readOnly?: boolean }) {
  return (
    <div className="code-editor">
      <CodeMirror
        value={value}
        onChange={onChange}
        extensions={extensions}
        height="240px"
        readOnly={readOnly}
        basicSetup={{ foldGutter: false }}
        aria-label={label}
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
