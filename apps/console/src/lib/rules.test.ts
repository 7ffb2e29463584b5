import { describe, expect, it } from 'vitest';
import { grantsBody, grantsReducer, initialGrants, type GrantsState } from './rules';

const apply = (state: GrantsState, ...actions: Parameters<typeof grantsReducer>[1][]) => actions.reduce(grantsReducer, state);

describe('grants editor state', () => {
  it('starts in rules mode, sorted by priority, when the application has rules', () => {
    const s = initialGrants({
      rules: [
        { priority: 5, container: '/b/', transform: 'reveal', permissions: ['token:use'] },
        { priority: 2, container: '/a/', transform: 'mask', permissions: ['token:read'] },
      ],
    });
    expect(s.mode).toBe('rules');
    expect(s.rules.map((r) => r.container)).toEqual(['/a/', '/b/']);
    expect(initialGrants({ permissions: ['token:read'] })).toEqual({ mode: 'permissions', permissions: ['token:read'], rules: [] });
  });

  it('adds, moves and removes rules, keeping priorities 1..n in the order shown', () => {
    let s = apply(initialGrants(), { type: 'mode', mode: 'rules' }, { type: 'addRule' }, { type: 'addRule' });
    s = apply(s, { type: 'updateRule', index: 0, patch: { container: '/first/' } }, { type: 'updateRule', index: 1, patch: { container: '/second/' } });
    s = apply(s, { type: 'moveRule', index: 1, by: -1 });
    expect(s.rules.map((r) => [r.priority, r.container])).toEqual([
      [1, '/second/'],
      [2, '/first/'],
    ]);
    expect(apply(s, { type: 'moveRule', index: 0, by: -1 })).toBe(s);
    s = apply(s, { type: 'removeRule', index: 0 });
    expect(s.rules.map((r) => [r.priority, r.container])).toEqual([[1, '/first/']]);
  });

  it('toggles permissions of the application or of one rule', () => {
    let s = apply(initialGrants(), { type: 'togglePermission', permission: 'token:read' }, { type: 'togglePermission', permission: 'token:use' });
    expect(s.permissions).toEqual(['token:read', 'token:use']);
    s = apply(s, { type: 'togglePermission', permission: 'token:read' });
    expect(s.permissions).toEqual(['token:use']);
    s = apply(s, { type: 'addRule' }, { type: 'toggleRulePermission', index: 0, permission: 'token:use' });
    expect(s.rules[0].permissions).toEqual(['token:read', 'token:use']);
  });

  it('sends exactly one of permissions and rules, with container or conditions', () => {
    const s = apply(initialGrants({ permissions: ['token:read'] }), { type: 'addRule' }, { type: 'updateRule', index: 0, patch: { description: 'all' } });
    expect(grantsBody(s)).toEqual({ permissions: ['token:read'] });
    expect(grantsBody({ ...s, mode: 'rules' })).toEqual({
      rules: [{ priority: 1, container: '/', transform: 'mask', permissions: ['token:read'], description: 'all' }],
    });
  });
});
