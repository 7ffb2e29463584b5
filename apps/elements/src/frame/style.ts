// Styles from options, applied through the CSSOM only (element.style.setProperty): the frame's CSP has no
// 'unsafe-inline', so no <style> text and no style attributes in markup. Pseudo-classes (:hover, :focus, :disabled,
// :read-only) are tracked in script and merged into the inline style; the pseudo-elements (::placeholder,
// ::selection) read custom properties that frame.css declares (--coffer-placeholder-color, …).
import { SAFE_CSS_PROPERTIES, type ElementStyle, type SafeStyle, type VariantStyle } from '../shared/types';

const kebab = (p: string): string => p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const ALTERNATES: Record<string, string[]> = { fontSmooth: ['-webkit-font-smoothing', '-moz-osx-font-smoothing'] };

/** A style value is a plain CSS value: no url() (nothing is fetched), no rule or declaration breaks. */
export function safeValue(v: unknown): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const s = String(v).trim();
  if (!s || s.length > 200 || /url\s*\(|image-set|expression|[;{}<>\\]/i.test(s)) return undefined;
  return s;
}

function declarations(style: SafeStyle | undefined): [string, string][] {
  const out: [string, string][] = [];
  if (!style) return out;
  for (const p of SAFE_CSS_PROPERTIES) {
    const v = safeValue(style[p]);
    if (v === undefined) continue;
    for (const name of ALTERNATES[p] ?? [kebab(p)]) out.push([name, v]);
  }
  return out;
}

export interface FieldLook {
  empty: boolean;
  complete: boolean;
  invalid: boolean;
  focused: boolean;
  hovered: boolean;
  disabled: boolean;
  readOnly: boolean;
}

/** The declarations for an input in a given state: base, then the state variant, then the pseudo-class styles. */
export function inputDeclarations(style: ElementStyle | undefined, look: FieldLook): Map<string, string> {
  const out = new Map<string, string>();
  if (!style) return out;
  const variants: VariantStyle[] = [];
  if (style.base) variants.push(style.base);
  if (look.empty && style.empty) variants.push(style.empty);
  if (look.complete && style.complete) variants.push(style.complete);
  if (look.invalid && style.invalid) variants.push(style.invalid);
  for (const v of variants) {
    const layers: (SafeStyle | undefined)[] = [v];
    if (look.hovered) layers.push(v[':hover']);
    if (look.focused) layers.push(v[':focus']);
    if (look.readOnly) layers.push(v[':read-only']);
    if (look.disabled) layers.push(v[':disabled']);
    for (const l of layers) for (const [k, x] of declarations(l)) out.set(k, x);
    for (const [k, x] of declarations(v['::placeholder'])) out.set(`--coffer-placeholder-${k.replace(/^-+/, '')}`, x);
    for (const [k, x] of declarations(v['::selection'])) out.set(`--coffer-selection-${k.replace(/^-+/, '')}`, x);
  }
  return out;
}

const applied = new WeakMap<HTMLElement, Set<string>>();

/** Sets the declarations on an element, removing the ones a previous call set and this one does not. */
export function applyDeclarations(el: HTMLElement, decls: Map<string, string>): void {
  const before = applied.get(el) ?? new Set<string>();
  for (const name of before) if (!decls.has(name)) el.style.removeProperty(name);
  for (const [name, value] of decls) el.style.setProperty(name, value);
  applied.set(el, new Set(decls.keys()));
}

export function containerDeclarations(style: ElementStyle | undefined): Map<string, string> {
  return new Map(declarations(style?.container));
}

const loadedFonts = new Set<string>();

/** Web font stylesheets (https only). The server's CSP decides whether they load (style-src, font-src). */
export function loadFonts(fonts: unknown): void {
  if (!Array.isArray(fonts)) return;
  for (const f of fonts) {
    if (typeof f !== 'string' || loadedFonts.has(f)) continue;
    let url: URL;
    try {
      url = new URL(f);
    } catch {
      continue;
    }
    if (url.protocol !== 'https:') continue;
    loadedFonts.add(f);
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = url.href;
    link.crossOrigin = 'anonymous';
    link.referrerPolicy = 'no-referrer';
    document.head.appendChild(link);
  }
}
