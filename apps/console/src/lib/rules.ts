import type { Schema } from './api';

/** An access rule of an application (AccessRuleView: a container or conditions, a transform, permissions). */
export type Rule = Schema<'AccessRuleView'>;
export type Transform = Rule['transform'];

/** The grants editor's state: permissions for every container, or prioritized rules (docs/access-control.md). */
export interface GrantsState {
  mode: 'permissions' | 'rules';
  permissions: string[];
  rules: Rule[];
}

export type GrantsAction =
  | { type: 'mode'; mode: GrantsState['mode'] }
  | { type: 'togglePermission'; permission: string }
  | { type: 'addRule' }
  | { type: 'removeRule'; index: number }
  | { type: 'moveRule'; index: number; by: -1 | 1 }
  | { type: 'updateRule'; index: number; patch: Partial<Rule> }
  | { type: 'toggleRulePermission'; index: number; permission: string };

export function initialGrants(app?: { permissions?: string[]; rules?: Rule[] }): GrantsState {
  const rules = [...(app?.rules ?? [])].sort((a, b) => a.priority - b.priority);
  return { mode: rules.length ? 'rules' : 'permissions', permissions: app?.permissions ?? [], rules };
}

const toggle = (list: string[], item: string) => (list.includes(item) ? list.filter((p) => p !== item) : [...list, item]);
/** priorities follow the order shown: 1, 2, 3… (the API needs them unique; the order is what the operator edits) */
const renumber = (rules: Rule[]) => rules.map((r, i) => ({ ...r, priority: i + 1 }));

export function grantsReducer(state: GrantsState, action: GrantsAction): GrantsState {
  switch (action.type) {
    case 'mode':
      return { ...state, mode: action.mode };
    case 'togglePermission':
      return { ...state, permissions: toggle(state.permissions, action.permission) };
    case 'addRule':
      return { ...state, rules: renumber([...state.rules, { priority: 0, container: '/', transform: 'mask', permissions: ['token:read'] }]) };
    case 'removeRule':
      return { ...state, rules: renumber(state.rules.filter((_, i) => i !== action.index)) };
    case 'moveRule': {
      const to = action.index + action.by;
      if (to < 0 || to >= state.rules.length) return state;
      const rules = [...state.rules];
      [rules[action.index], rules[to]] = [rules[to], rules[action.index]];
      return { ...state, rules: renumber(rules) };
    }
    case 'updateRule':
      return { ...state, rules: state.rules.map((r, i) => (i === action.index ? { ...r, ...action.patch } : r)) };
    case 'toggleRulePermission':
      return { ...state, rules: state.rules.map((r, i) => (i === action.index ? { ...r, permissions: toggle(r.permissions, action.permission) } : r)) };
  }
}

/** The request body's grants: exactly one of permissions and rules, as the API wants them. */
export function grantsBody(state: GrantsState): { permissions: string[]; rules?: undefined } | { rules: Rule[]; permissions?: undefined } {
  if (state.mode === 'permissions') return { permissions: state.permissions };
  return {
    rules: state.rules.map((r) => {
      const rule: Rule = { priority: r.priority, transform: r.transform, permissions: r.permissions };
      if (r.description) rule.description = r.description;
      if (r.conditions?.length) rule.conditions = r.conditions;
      else rule.container = r.container ?? '/';
      return rule;
    }),
  };
}

/** Which permissions each application type may hold (the API checks this too; the editor offers only these). */
export const PERMISSIONS_BY_TYPE: Record<string, string[]> = {
  management: [
    'application:create',
    'application:read',
    'application:update',
    'application:delete',
    'reactor:create',
    'reactor:read',
    'reactor:update',
    'reactor:delete',
    'tenant:read',
    'tenant:update',
    'log:read',
  ],
  private: ['token:create', 'token:read', 'token:update', 'token:delete', 'token:search', 'token:use'],
  public: ['token:create', 'token:update'],
};
