// @vitest-environment jsdom
import { act, createRef } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardElement, optionsKey, TextElement } from './index';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function makeFake(type: string, n: number) {
  const listeners = new Map<string, (e: unknown) => void>();
  return {
    listeners,
    id: `el${n}`,
    type,
    mount: vi.fn(() => Promise.resolve()),
    update: vi.fn(() => Promise.resolve()),
    unmount: vi.fn(),
    on: vi.fn((t: string, fn: (e: unknown) => void) => {
      listeners.set(t, fn);
      return { unsubscribe: () => listeners.delete(t) };
    }),
  };
}

function fakeCoffer() {
  const made: { type: string; options: Record<string, unknown>; element: ReturnType<typeof makeFake> }[] = [];
  return {
    made,
    createElement: vi.fn((type: string, options: Record<string, unknown> = {}) => {
      const element = makeFake(type, made.length);
      made.push({ type, options, element });
      return element;
    }),
  };
}

let container: HTMLDivElement;
afterEach(() => container?.remove());

describe('React components', () => {
  it('create, mount, forward events, update and unmount the element', async () => {
    container = document.createElement('div');
    document.body.appendChild(container);
    const coffer = fakeCoffer();
    const onChange = vi.fn();
    const ref = createRef<unknown>();
    const root = createRoot(container);
    await act(async () => {
      root.render(<CardElement coffer={coffer as never} id="card" ref={ref as never} onChange={onChange} skipLuhnValidation />);
    });
    expect(coffer.createElement).toHaveBeenCalledWith('card', { skipLuhnValidation: true });
    const { element } = coffer.made[0];
    expect(element.mount).toHaveBeenCalledWith(container.querySelector('#card'));
    expect(ref.current).toBe(element);
    element.listeners.get('change')?.({ type: 'change', complete: true });
    expect(onChange).toHaveBeenCalledWith({ type: 'change', complete: true });

    await act(async () => {
      root.render(<CardElement coffer={coffer as never} id="card" ref={ref as never} onChange={onChange} skipLuhnValidation={false} />);
    });
    expect(element.update).toHaveBeenCalledWith({ skipLuhnValidation: false });
    expect(coffer.createElement).toHaveBeenCalledTimes(1);

    await act(async () => root.unmount());
    expect(element.unmount).toHaveBeenCalled();
  });

  it('waits for the instance', async () => {
    container = document.createElement('div');
    document.body.appendChild(container);
    const coffer = fakeCoffer();
    const root = createRoot(container);
    await act(async () => root.render(<TextElement coffer={null} targetId="t" />));
    expect(coffer.createElement).not.toHaveBeenCalled();
    await act(async () => root.render(<TextElement coffer={coffer as never} targetId="t" />));
    expect(coffer.createElement).toHaveBeenCalledWith('text', { targetId: 't' });
    await act(async () => root.unmount());
  });

  it('keys options by RegExp source and element id', () => {
    expect(optionsKey({ validation: /a/ })).not.toBe(optionsKey({ validation: /b/ }));
    const el = { id: 'x', type: 'cardNumber', mount: () => undefined };
    expect(optionsKey({ cardNumberElement: el })).toBe('{"cardNumberElement":"element:x"}');
  });
});
