import { throwError } from 'rxjs';
import { lastValueFrom } from 'rxjs';
import type { Logger } from '@coffer/observability';
import { InFlightRequests } from './in-flight';
import { superviseHandlers } from './rpc-supervision';

function recordingLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; msg: string }> = [];
  const logger = {
    isLevelEnabled: () => true,
    debug: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'debug', fields, msg }),
    info: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'info', fields, msg }),
  } as unknown as Logger;
  return { logger, lines };
}

const envelope = { traceId: 'trace-1', principal: { tenantId: 't1', applicationId: 'a1' }, body: { secret: '4242424242424242' } };

describe('superviseHandlers', () => {
  it('counts a handler while it runs and logs one line without the payload', async () => {
    let release!: () => void;
    const handlers = new Map<string, any>([['token.tokens.get', Object.assign(async () => new Promise((r) => (release = () => r({ id: 'x' }))), { isEventHandler: false, extras: { a: 1 } })]]);
    const inFlight = new InFlightRequests();
    const { logger, lines } = recordingLogger();
    expect(superviseHandlers({ messageHandlers: handlers }, inFlight, logger)).toBe(true);
    const handler = handlers.get('token.tokens.get');
    expect(handler.extras).toEqual({ a: 1 }); // Nest's own properties are kept
    const reply = handler(envelope, {});
    await Promise.resolve();
    expect(inFlight.active).toBe(1);
    let idle = false;
    void inFlight.idle(5000).then(() => (idle = true));
    release();
    expect(await reply).toEqual({ id: 'x' });
    await Promise.resolve();
    expect(inFlight.active).toBe(0);
    expect(idle).toBe(true);
    expect(lines).toEqual([{ level: 'debug', msg: 'rpc', fields: expect.objectContaining({ traceId: 'trace-1', subject: 'token.tokens.get', tenantId: 't1', applicationId: 'a1' }) }]);
    expect(JSON.stringify(lines)).not.toContain('4242');
  });

  it('logs a failure with its status once the error reaches the transport, and stops counting it', async () => {
    const handlers = new Map<string, any>([['token.tokens.get', async () => throwError(() => ({ status: 404, title: 'Not Found' }))]]);
    const inFlight = new InFlightRequests();
    const { logger, lines } = recordingLogger();
    superviseHandlers({ messageHandlers: handlers }, inFlight, logger);
    const out = await handlers.get('token.tokens.get')(envelope, {});
    expect(inFlight.active).toBe(1);
    await expect(lastValueFrom(out)).rejects.toEqual({ status: 404, title: 'Not Found' });
    expect(inFlight.active).toBe(0);
    expect(lines).toEqual([{ level: 'info', msg: 'rpc failed', fields: expect.objectContaining({ status: 404, subject: 'token.tokens.get' }) }]);
  });

  it('refuses a server of another shape', () => {
    expect(superviseHandlers({}, new InFlightRequests(), recordingLogger().logger)).toBe(false);
  });
});
