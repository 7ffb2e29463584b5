import { DebugEvents, Events, type NatsConnection, type Status } from 'nats';
import type { Logger } from '@coffer/observability';
import { logConnectionStatus, natsDisconnects } from './connection-status';

describe('logConnectionStatus', () => {
  it('logs server errors as warnings and reconnects as information, nothing else', async () => {
    const events: Status[] = [
      { type: Events.Error, data: 'Permissions Violation for Publish to "session.tenants.get.v1"' },
      { type: DebugEvents.PingTimer, data: '1' },
      { type: Events.Disconnect, data: '127.0.0.1:4222' },
      { type: Events.Reconnect, data: '127.0.0.1:4222' },
    ];
    const nc = {
      status: async function* () {
        yield* events;
      },
    } as unknown as Pick<NatsConnection, 'status'>;
    const lines: Array<[string, unknown, string]> = [];
    const logger = {
      warn: (fields: unknown, msg: string) => lines.push(['warn', fields, msg]),
      info: (fields: unknown, msg: string) => lines.push(['info', fields, msg]),
    } as unknown as Logger;
    logConnectionStatus(nc, 'reactor-service-rpc', logger);
    await new Promise((r) => setTimeout(r, 10));
    expect(lines).toEqual([
      ['warn', { connection: 'reactor-service-rpc', error: 'Permissions Violation for Publish to "session.tenants.get.v1"' }, 'nats connection error'],
      ['info', { connection: 'reactor-service-rpc', event: 'disconnect', server: '127.0.0.1:4222' }, 'nats connection'],
      ['info', { connection: 'reactor-service-rpc', event: 'reconnect', server: '127.0.0.1:4222' }, 'nats connection'],
    ]);
  });

  it('counts each disconnect in coffer_nats_disconnects_total{connection}', async () => {
    const before = (await natsDisconnects.get()).values.find((v) => v.labels['connection'] === 'gateway-events')?.value ?? 0;
    const nc = {
      status: async function* () {
        yield { type: Events.Disconnect, data: '127.0.0.1:4222' };
        yield { type: Events.Reconnect, data: '127.0.0.1:4222' };
        yield { type: Events.Disconnect, data: '127.0.0.1:4222' };
      },
    } as unknown as Pick<NatsConnection, 'status'>;
    logConnectionStatus(nc, 'gateway-events', { warn: () => undefined, info: () => undefined } as unknown as Logger);
    // the series exists from the start (at 0), so an alert's increase() sees the first disconnect
    expect((await natsDisconnects.get()).values.some((v) => v.labels['connection'] === 'gateway-events')).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect((await natsDisconnects.get()).values.find((v) => v.labels['connection'] === 'gateway-events')?.value).toBe(before + 2);
  });
});
