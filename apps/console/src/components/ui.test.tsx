import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ProblemView } from './ui';
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
