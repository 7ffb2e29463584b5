import { SUBJECTS } from '../subjects';
import { MESSAGE_PAYLOADS } from './registry';

function subjects(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (typeof node !== 'object' || node === null) return [];
  return Object.values(node).flatMap(subjects);
}

describe('NATS payload classes', () => {
  it('name a payload class for every subject', () => {
    const all = subjects(SUBJECTS);
    expect(all.length).toBeGreaterThan(40);
    expect(all.filter((s) => !MESSAGE_PAYLOADS[s])).toEqual([]);
  });

  it('name no subject that does not exist', () => {
    const all = new Set(subjects(SUBJECTS));
    expect(Object.keys(MESSAGE_PAYLOADS).filter((s) => !all.has(s))).toEqual([]);
  });
});
