import { createHmac } from 'node:crypto';
import { deliveryHeaders } from './delivery-request';
import { signingKeys } from './signer';

describe('deliveryHeaders', () => {
  const secret = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;

  it('are the Standard Webhooks headers of one attempt, the signature over "<id>.<timestamp>.<body>"', () => {
    const headers = deliveryHeaders({ id: 'msg_1', body: '{"a":1}', keys: signingKeys([secret]), timestamp: 1_700_000_000 });
    const expected = createHmac('sha256', Buffer.alloc(32, 3)).update('msg_1.1700000000.{"a":1}').digest('base64');
    expect(headers).toEqual([
      ['content-type', 'application/json'],
      ['user-agent', 'Coffer-Webhooks/1'],
      ['webhook-id', 'msg_1'],
      ['webhook-timestamp', '1700000000'],
      ['webhook-signature', `v1,${expected}`],
    ]);
  });

  it('carry one signature per signing key (a rotation)', () => {
    const other = `whsec_${Buffer.alloc(32, 4).toString('base64')}`;
    const headers = new Map(deliveryHeaders({ id: 'msg_2', body: '{}', keys: signingKeys([secret, other]), timestamp: 1 }));
    expect(headers.get('webhook-signature')?.split(' ')).toHaveLength(2);
  });
});
