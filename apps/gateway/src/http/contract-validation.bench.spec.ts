import { CreateApplicationRequest, CreateTokenRequest, validateContract } from '@coffer/contracts';
import { ContractValidationPipe } from './contract-validation.pipe';

/**
 * The per-request cost of validating a body against its contract (issue 12 asks for it: the pipe sits on the hot
 * path of every write). Prints nanoseconds per validation next to a baseline measured in the same run (a JSON round
 * trip of the same body), so a loaded machine does not skew the comparison; fails only if validation becomes absurdly
 * slow relative to that baseline.
 */
function nsPer(iterations: number, fn: () => unknown): number {
  for (let i = 0; i < 2_000; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - start) / iterations;
}

describe('contract validation cost', () => {
  const card = {
    type: 'card',
    data: { number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '123' },
    metadata: { customer: 'c-42', order: 'o-7' },
    containers: ['/pci/high/'],
    search_indexes: ['{{ data.number | last4 }}'],
    deduplicate_token: false,
  };
  const application = { name: 'Checkout backend', type: 'private', permissions: ['token:create', 'token:read'] };

  it('validates a card create body and an application create body in microseconds', () => {
    const pipe = new ContractValidationPipe();
    const figures = {
      'baseline: JSON.parse(JSON.stringify(card body))': nsPer(20_000, () => JSON.parse(JSON.stringify(card))),
      'validateContract(CreateTokenRequest, card body)': nsPer(20_000, () => validateContract(CreateTokenRequest, card)),
      'edge pipe (whitelist) CreateTokenRequest, card body': nsPer(20_000, () => pipe.transform(card, { type: 'body', metatype: CreateTokenRequest })),
      'edge pipe (whitelist) CreateApplicationRequest': nsPer(20_000, () => pipe.transform(application, { type: 'body', metatype: CreateApplicationRequest })),
    };
    console.log(Object.entries(figures).map(([k, ns]) => `${k}: ${Math.round(ns)} ns`).join('\n'));
    const baseline = figures['baseline: JSON.parse(JSON.stringify(card body))'];
    for (const ns of Object.values(figures)) expect(ns / baseline).toBeLessThan(100);
  });
});
