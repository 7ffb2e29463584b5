// Which methods of the two official Basis Theory SDKs the end-to-end tests drive, read from their sources: the clients
// a file makes (`x = nodeSdk(…)`, `new BasisTheoryClient(…)`, `x = await btJs(…)`, `new BasisTheory().init(…)`) and
// the calls made on them (`x.tokens.create(`, `nodeSdk(k).webhooks.ping(`, `(await btJs(k)).sessions.create(`).
// docs/compatibility.md is checked against it (compatibility.mjs): a method is "supported" when a test calls it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SPECS_DIR = path.join(ROOT, 'apps/api-e2e/src');

/** How each SDK's client is made, as a pattern whose group 1 is the variable it is assigned to. */
const CLIENT_ASSIGNMENTS = {
  node: [/\b(\w+)\s*=\s*(?:await\s+)?nodeSdk\(/g, /\b(\w+)\s*=\s*new\s+BasisTheoryClient\(/g],
  js: [/\b(\w+)\s*=\s*await\s+btJs\(/g, /\b(\w+)\s*=\s*await\s+new\s+BasisTheory\(\)\s*\.init\(/g],
};

/** A client made and used in one expression: the call's member chain is group 1. */
const ARGS = String.raw`\((?:[^()]|\([^()]*\))*\)`;
const CHAIN = String.raw`\s*\.\s*((?:\w+\s*\.\s*)*\w+)\s*\(`;
const INLINE = {
  node: [new RegExp(String.raw`\bnodeSdk${ARGS}${CHAIN}`, 'g'), new RegExp(String.raw`\bnew\s+BasisTheoryClient${ARGS}${CHAIN}`, 'g')],
  js: [new RegExp(String.raw`\(\s*await\s+btJs${ARGS}\s*\)${CHAIN}`, 'g')],
};

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The source without its comments, so a call named in a comment does not count as one made. */
function code(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/**
 * `{ node: Map<method, Set<file>>, js: … }`: every SDK method a test file calls, as its member path on the client
 * (`tokens.create`, `tenants.self.get`, `tokenize`), with the files that call it (relative to the repository).
 */
export function drivenSdkMethods(dir = SPECS_DIR) {
  const driven = { node: new Map(), js: new Map() };
  const add = (sdk, method, file) => {
    const name = method.replace(/\s+/g, '');
    if (!driven[sdk].has(name)) driven[sdk].set(name, new Set());
    driven[sdk].get(name).add(path.relative(ROOT, file));
  };
  for (const file of filesUnder(dir)) {
    const src = code(fs.readFileSync(file, 'utf8'));
    const clients = new Map();
    for (const [sdk, patterns] of Object.entries(CLIENT_ASSIGNMENTS)) {
      for (const pattern of patterns) {
        for (const m of src.matchAll(pattern)) {
          if (clients.has(m[1]) && clients.get(m[1]) !== sdk) throw new Error(`${path.relative(ROOT, file)}: "${m[1]}" holds clients of both SDKs`);
          clients.set(m[1], sdk);
        }
      }
    }
    for (const [name, sdk] of clients) {
      for (const m of src.matchAll(new RegExp(String.raw`(?<![\w.])${name}${CHAIN}`, 'g'))) add(sdk, m[1], file);
    }
    for (const [sdk, patterns] of Object.entries(INLINE)) {
      for (const pattern of patterns) for (const m of src.matchAll(pattern)) add(sdk, m[1], file);
    }
  }
  return driven;
}
