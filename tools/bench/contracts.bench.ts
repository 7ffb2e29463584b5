/**
 * The cost of validating a request body against its contract class (libs/contracts, class-validator and
 * class-transformer), as the gateway's edge pipe does for every body typed with a contract:
 *
 *   npx ts-node --transpile-only -r ./tools/bench/lib/ts-paths.cjs -P libs/contracts/tsconfig.lib.json tools/bench/contracts.bench.ts
 *
 * Microseconds per validation next to a baseline measured in the same run (a JSON round trip of the same body), so
 * a loaded machine does not skew the comparison. Each runs for BENCH_MS (default 1000) ms after a warm-up.
 */
import { CreateApplicationRequest, CreateTokenRequest, ReactorFormulaRequest, UpdateTenantRequest, validateContract } from '../../libs/contracts/src';

const BENCH_MS = Number(process.env['BENCH_MS'] ?? 1000);

const BODIES = {
  application: { name: 'Checkout backend', type: 'private', permissions: ['token:create', 'token:read'] },
  tenant: { name: 'Acme', settings: { deduplicate_tokens: 'true' } },
  formula: {
    name: 'Charge a card',
    type: 'private',
    code: 'module.exports = async function (req) { return { raw: req.args }; };',
    configuration: [{ name: 'API_KEY', type: 'string' }],
    request_parameters: [{ name: 'card.number', type: 'string', optional: false }],
  },
  card: {
    type: 'card',
    data: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '123' },
    metadata: { customer: 'c-42', order: 'o-7' },
    containers: ['/pci/high/'],
    search_indexes: ['{{ data.number | last4 }}'],
  },
};

function microsPer(fn: () => unknown): number {
  const warmUntil = Date.now() + Math.min(300, BENCH_MS / 3);
  while (Date.now() < warmUntil) fn();
  let n = 0;
  const start = process.hrtime.bigint();
  const until = Date.now() + BENCH_MS;
  while (Date.now() < until) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
  }
  return Number(process.hrtime.bigint() - start) / n / 1000;
}

const whitelist = { whitelist: true };
const rows: Array<[string, number]> = [
  ['baseline: JSON round trip of the card body', microsPer(() => JSON.parse(JSON.stringify(BODIES.card)))],
  ['POST /applications (edge pipe)', microsPer(() => validateContract(CreateApplicationRequest, BODIES.application, undefined, whitelist))],
  ['PUT /tenants/self (edge pipe)', microsPer(() => validateContract(UpdateTenantRequest, BODIES.tenant, undefined, whitelist))],
  ['POST /reactor-formulas (edge pipe)', microsPer(() => validateContract(ReactorFormulaRequest, BODIES.formula, undefined, whitelist))],
  [
    'CreateTokenRequest, card (documentation class; token-service validates by hand)',
    microsPer(() => validateContract(CreateTokenRequest, BODIES.card, undefined, whitelist)),
  ],
];
const baseline = rows[0][1];
console.log('scenario'.padEnd(84) + 'µs/op'.padStart(9) + '  × baseline');
for (const [name, micros] of rows) console.log(name.padEnd(84) + micros.toFixed(1).padStart(9) + `  ${(micros / baseline).toFixed(1)}×`);
