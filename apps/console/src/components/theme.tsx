import { useEffect, useState } from 'react';

type Theme = 'system' | 'light' | 'dark';
const KEY = 'coffer-console-theme';

/** Light, dark, or the system's (prefers-color-scheme); the choice is kept in this browser. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem(KEY) as Theme | null) ?? 'system');
  useEffect(() => {
    if (theme === 'system') {
      delete document.documentElement.dataset['theme'];
      localStorage.removeItem(KEY);
    } else {
      document.documentElement.dataset['theme'] = theme;
      localStorage.setItem(KEY, theme);
    }
  }, [theme]);
  return (
    <label className="theme-toggle">
      <span>Theme</span>
      <select value={theme} onChange={(e) => setTheme(e.target.value as Theme)}>
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
