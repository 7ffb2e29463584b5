import { throwError } from 'rxjs';
import { lastValueFrom } from 'rxjs';
import type { Logger } from '@coffer/observability';
import { InFlightRequests } from './in-flight';
import { rpcDroppedPastDeadline, superviseHandlers } from './rpc-supervision';
import { JSONCodec } from 'nats';
import { ArrivalStampingDeserializer, currentRequestDeadline } from './request-deadline';
import { ProblemError } from '@coffer/contracts';

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
    const handlers = new Map<string, any>([
      ['token.tokens.get', Object.assign(async () => new Promise((r) => (release = () => r({ id: 'x' }))), { isEventHandler: false, extras: { a: 1 } })],
    ]);
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
    expect(lines).toEqual([
      { level: 'debug', msg: 'rpc', fields: expect.objectContaining({ traceId: 'trace-1', subject: 'token.tokens.get', tenantId: 't1', applicationId: 'a1' }) },
    ]);
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

  it('does not run a handler whose caller gave up before it could start: counted, one line without payload', async () => {
    let ran = false;
    const handlers = new Map<string, any>([['token.tokens.get', async () => ((ran = true), { id: 'x' })]]);
    const inFlight = new InFlightRequests();
    const { logger, lines } = recordingLogger();
    superviseHandlers({ messageHandlers: handlers }, inFlight, logger);
    // taken off the bus with 20 ms left, then the event loop was busy for 40 ms before the handler could start
    const packet = new ArrivalStampingDeserializer().deserialize(
      JSONCodec().encode({ pattern: 'token.tokens.get', id: '1', data: { ...envelope, timeoutMs: 20 } }),
    ) as { data: unknown };
    const busyUntil = performance.now() + 40;
    while (performance.now() < busyUntil);
    const before = (await rpcDroppedPastDeadline.get()).values.find((v) => v.labels.subject === 'token.tokens.get')?.value ?? 0;
    const out = await handlers.get('token.tokens.get')(packet.data, {});
    await expect(lastValueFrom(out)).rejects.toMatchObject({ status: 504 });
    expect(ran).toBe(false);
    expect(inFlight.active).toBe(0);
    expect((await rpcDroppedPastDeadline.get()).values.find((v) => v.labels.subject === 'token.tokens.get')?.value).toBe(before + 1);
    expect(lines).toEqual([
      { level: 'info', msg: expect.stringContaining('deadline'), fields: expect.objectContaining({ traceId: 'trace-1', subject: 'token.tokens.get' }) },
    ]);
    expect(JSON.stringify(lines)).not.toContain('4242');
  });

  it('runs a handler in time, with its deadline as the current request deadline for the calls it makes', async () => {
    let seen: number | undefined;
    const handlers = new Map<string, any>([['token.tokens.get', async () => ((seen = currentRequestDeadline()), { id: 'x' })]]);
    superviseHandlers({ messageHandlers: handlers }, new InFlightRequests(), recordingLogger().logger);
    const before = performance.now();
    expect(await handlers.get('token.tokens.get')({ ...envelope, timeoutMs: 5_000 }, {})).toEqual({ id: 'x' });
    expect(seen).toBeGreaterThanOrEqual(before + 5_000);
    expect(seen).toBeLessThanOrEqual(performance.now() + 5_000);
  });

  it('refuses a server of another shape', () => {
    expect(superviseHandlers({}, new InFlightRequests(), recordingLogger().logger)).toBe(false);
  });

  // TEMPORARY SHIM (issue 23): replaced with the Coffer NATS transport, which calls the same HandlerInvoker
  describe('through an invoker', () => {
    it('the handler gets what the invoker calls it with; a failure of the handler reaches the invoker as its problem', async () => {
      const handlers = new Map<string, any>([
        ['ok', async (data: unknown) => ({ got: data })],
        ['fails', async () => throwError(() => ({ status: 404, title: 'Not Found' }))],
      ]);
      const seen: unknown[] = [];
      const invoker = async (subject: string, env: unknown, call: (data: unknown) => Promise<unknown>) =>
        call({ cmd: subject }).catch((err) => {
          seen.push(err);
          throw err;
        });
      superviseHandlers({ messageHandlers: handlers }, new InFlightRequests(), recordingLogger().logger, invoker);
      expect(await handlers.get('ok')(envelope, {})).toEqual({ got: { cmd: 'ok' } });
      await expect(lastValueFrom(await handlers.get('fails')(envelope, {}))).rejects.toEqual({ status: 404, title: 'Not Found' });
      expect(seen).toEqual([{ status: 404, title: 'Not Found' }]);
    });

    it('what the invoker throws itself is answered as a problem (a 401 before any handler runs)', async () => {
      const handler = jest.fn();
      const handlers = new Map<string, any>([['x', handler]]);
      const invoker = async () => {
        throw new ProblemError(401, 'A valid API key is required');
      };
      superviseHandlers({ messageHandlers: handlers }, new InFlightRequests(), recordingLogger().logger, invoker);
      await expect(lastValueFrom(await handlers.get('x')(envelope, {}))).rejects.toMatchObject({ status: 401, detail: 'A valid API key is required' });
      expect(handler).not.toHaveBeenCalled();
    });

    it('event handlers are not invoked through it', async () => {
      const handler = Object.assign(
        jest.fn(async () => undefined),
        { isEventHandler: true },
      );
      const handlers = new Map<string, any>([['events.x', handler]]);
      const invoker = jest.fn();
      superviseHandlers({ messageHandlers: handlers }, new InFlightRequests(), recordingLogger().logger, invoker);
      await handlers.get('events.x')(envelope, {});
      expect(invoker).not.toHaveBeenCalled();
      expect(handler).toHaveBeenCalledWith(envelope, {});
    });
  });
});
