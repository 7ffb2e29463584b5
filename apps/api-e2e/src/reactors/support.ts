import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { api } from '@coffer/testing';

/** Module code for Node 16 formulas: `module.exports = async function (req) { <body> }`. */
export const formulaCode = (body: string) => `module.exports = async function (req) {\n${body}\n};`;

export function privateFormula(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: `formula ${Math.random().toString(36).slice(2, 10)}`, type: 'private', code: formulaCode('return { raw: {} };'), ...overrides };
}

/** Imports the official catalog of tools/admin/formulas with the built admin CLI (idempotent: upsert by name). */
export function importOfficialFormulas(): { created: string[]; updated: string[] } {
  const root = path.resolve(__dirname, '../../../..');
  const out = execFileSync(
    process.execPath,
    [path.join(root, 'dist/tools/admin/main.js'), 'formulas', 'import', path.join(root, 'tools/admin/formulas'), '--json'],
    { env: { ...process.env, DATABASE_URL: process.env['COFFER_E2E_DATABASE_URL'], KEY_ENCRYPTION_KEYS: process.env['COFFER_E2E_KEK'] }, encoding: 'utf8' },
  );
  return JSON.parse(out);
}

/** Creates a formula and a reactor of it; returns both ids. */
export async function makeReactor(
  managementKey: string,
  formula: Record<string, unknown>,
  reactor: Record<string, unknown> = {},
): Promise<{ formulaId: string; reactorId: string }> {
  const f = await api('POST', '/reactor-formulas', { key: managementKey, body: privateFormula(formula) });
  if (f.status !== 201) throw new Error(`formula: ${f.status} ${f.text}`);
  const r = await api('POST', '/reactors', { key: managementKey, body: { name: 'reactor', configuration: {}, ...reactor, formula: { id: f.body.id } } });
  if (r.status !== 201) throw new Error(`reactor: ${r.status} ${r.text}`);
  return { formulaId: f.body.id, reactorId: r.body.id };
}
