import type { Dispatch } from 'react';
import { PERMISSIONS_BY_TYPE, type GrantsAction, type GrantsState, type Transform } from '../lib/rules';

const TRANSFORMS: Transform[] = ['redact', 'mask', 'reveal'];

/** Permissions for every container, or prioritized rules (a container prefix, a transform, permissions). */
export function GrantsEditor({ type, state, dispatch }: { type: string; state: GrantsState; dispatch: Dispatch<GrantsAction> }) {
  const available = PERMISSIONS_BY_TYPE[type] ?? [];
  const rulesAllowed = type !== 'management';
  return (
    <fieldset className="grants">
      <legend>Access</legend>
      {rulesAllowed ? (
        <div role="radiogroup" aria-label="Grant by" className="inline">
          <label>
            <input type="radio" name="grant-mode" checked={state.mode === 'permissions'} onChange={() => dispatch({ type: 'mode', mode: 'permissions' })} />{' '}
            Permissions for every container
          </label>
          <label>
            <input type="radio" name="grant-mode" checked={state.mode === 'rules'} onChange={() => dispatch({ type: 'mode', mode: 'rules' })} /> Rules by
            container
          </label>
        </div>
      ) : null}
      {state.mode === 'permissions' || !rulesAllowed ? (
        <div className="checks">
          {available.map((p) => (
            <label key={p}>
              <input type="checkbox" checked={state.permissions.includes(p)} onChange={() => dispatch({ type: 'togglePermission', permission: p })} /> {p}
            </label>
          ))}
        </div>
      ) : (
        <>
          <p className="hint">Rules are tried in order (priority 1 first); the first whose container is a prefix of the token's container decides.</p>
          <ol className="rules">
            {state.rules.map((r, i) => (
              <li key={i} className="rule card">
                <div className="rule-head">
                  <strong>Rule {r.priority}</strong>
                  <button
                    type="button"
                    aria-label={`Move rule ${r.priority} up`}
                    disabled={i === 0}
                    onClick={() => dispatch({ type: 'moveRule', index: i, by: -1 })}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={`Move rule ${r.priority} down`}
                    disabled={i === state.rules.length - 1}
                    onClick={() => dispatch({ type: 'moveRule', index: i, by: 1 })}
                  >
                    ↓
                  </button>
                  <button type="button" className="danger" aria-label={`Remove rule ${r.priority}`} onClick={() => dispatch({ type: 'removeRule', index: i })}>
                    Remove
                  </button>
                </div>
                <label>
                  Container prefix
                  <input
                    value={r.container ?? ''}
                    placeholder="/pci/"
                    onChange={(e) => dispatch({ type: 'updateRule', index: i, patch: { container: e.target.value } })}
                  />
                </label>
                <label>
                  Transform
                  <select value={r.transform} onChange={(e) => dispatch({ type: 'updateRule', index: i, patch: { transform: e.target.value as Transform } })}>
                    {TRANSFORMS.map((t) => (
                      <option key={t}>{t}</option>
                    ))}
                  </select>
                </label>
                <label>
                  Description
                  <input value={r.description ?? ''} onChange={(e) => dispatch({ type: 'updateRule', index: i, patch: { description: e.target.value } })} />
                </label>
                <div className="checks" role="group" aria-label={`Permissions of rule ${r.priority}`}>
                  {available.map((p) => (
                    <label key={p}>
                      <input
                        type="checkbox"
                        checked={r.permissions.includes(p)}
                        onChange={() => dispatch({ type: 'toggleRulePermission', index: i, permission: p })}
                      />{' '}
                      {p}
                    </label>
                  ))}
                </div>
              </li>
            ))}
          </ol>
          <button type="button" onClick={() => dispatch({ type: 'addRule' })}>
            Add rule
          </button>
        </>
      )}
    </fieldset>
  );
}
