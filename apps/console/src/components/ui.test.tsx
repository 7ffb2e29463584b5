import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { FieldWithErrors, LoadedList, ProblemView, SaveControls } from './ui';
import { toProblem } from '../lib/problem';

afterEach(cleanup);

describe('problem documents', () => {
  it('shows title, status, detail and every field error as an alert', () => {
    render(
      <ProblemView
        problem={toProblem(400, {
          title: 'Bad Request',
          status: 400,
          detail: 'The request is invalid',
          errors: { name: ['is required'], 'rules[0].container': ['must be a path like /pci/high/'] },
        })}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Bad Request');
    expect(alert.textContent).toContain('(400)');
    expect(alert.textContent).toContain('The request is invalid');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['name: is required', 'rules[0].container: must be a path like /pci/high/']);
  });

  it('describes a reply that is no problem document by its status, and a network failure', () => {
    expect(toProblem(502, '<html>bad gateway</html>')).toEqual({ title: 'Request failed (502)', status: 502 });
    expect(toProblem(0, undefined)).toMatchObject({ title: 'Network error', status: 0 });
    render(<ProblemView problem={toProblem(503, { title: 'Service Unavailable', status: 503 })} />);
    expect(screen.getByRole('alert').textContent).toBe('Service Unavailable (503)');
  });

  it('renders nothing without a problem', () => {
    const { container } = render(<ProblemView problem={null} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('LoadedList', () => {
  const items = [
    { id: 'k1', name: 'first' },
    { id: 'k2', name: 'second' },
  ];

  it('shows one item per entry, in a list of the given class', () => {
    render(<LoadedList load={{ state: 'ready', data: items }} className="keys" empty="None." item={(i) => <code>{i.name}</code>} />);
    const list = screen.getByRole('list');
    expect(list.className).toBe('keys');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => [li.textContent, li.hasAttribute('class')]),
    ).toEqual([
      ['first', false],
      ['second', false],
    ]);
  });

  it('shows `empty` without entries, the spinner while loading and the problem when the load failed', () => {
    render(<LoadedList load={{ state: 'ready', data: [] }} className="keys" empty="None." item={() => null} />);
    expect(screen.getByText('None.').className).toBe('empty');
    cleanup();
    render(<LoadedList load={{ state: 'loading' }} className="keys" empty="None." item={() => null} />);
    expect(screen.getByRole('status').textContent).toContain('Loading');
    cleanup();
    render(<LoadedList load={{ state: 'error', problem: { title: 'Forbidden', status: 403 } }} className="keys" empty="None." item={() => null} />);
    expect(screen.getByRole('alert').textContent).toBe('Forbidden (403)');
  });
});

describe('SaveControls', () => {
  it('shows the submit button only to a session that may write, "Saving…" while busy, and "Saved." once saved', () => {
    render(<SaveControls problem={null} busy={false} writable saved={false} label="Save webhook" />);
    expect((screen.getByRole('button', { name: 'Save webhook' }) as HTMLButtonElement).type).toBe('submit');
    expect(screen.queryByRole('status')).toBeNull();
    cleanup();
    render(<SaveControls problem={null} busy writable saved={false} label="Save webhook" />);
    expect((screen.getByRole('button', { name: 'Saving…' }) as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    render(<SaveControls problem={{ title: 'Conflict', status: 409 }} busy={false} writable={false} saved label="Save webhook" />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Conflict (409)');
    expect(screen.getByRole('status').textContent).toBe(' Saved.');
  });
});

describe('FieldWithErrors', () => {
  it('labels the control and ties it to its errors, listed under it', () => {
    render(
      <FieldWithErrors label="Name" errorsId="name-errors" errors={['is required']}>
        {(described) => <input {...described} />}
      </FieldWithErrors>,
    );
    const input = screen.getByLabelText('Name');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toBe('is required');
  });

  it('leaves a control without errors undescribed', () => {
    render(
      <FieldWithErrors label="Name" errorsId="name-errors" errors={[]}>
        {(described) => <input {...described} />}
      </FieldWithErrors>,
    );
    const input = screen.getByLabelText('Name');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(document.getElementById('name-errors')).toBeNull();
  });
});
