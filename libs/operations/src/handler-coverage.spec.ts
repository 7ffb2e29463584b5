import { Controller } from '@nestjs/common';
import { op, type OperationRow } from '@coffer/contracts';
import { assertHandlerCoverage, handlerCoverageProblems } from './handler-coverage';
import { Operation, declaredOperations } from './operation.decorator';

class Body {}
const row = (subject: string): OperationRow => op<Body>()({ subject, payload: Body, access: 'principal' });

describe('handler coverage: a service starts only when each of its rows has exactly one handler', () => {
  const a = row('test.coverage.a');
  const b = row('test.coverage.b');

  it('is quiet when every row has one handler and every handler serves a row', () => {
    expect(handlerCoverageProblems([a, b], [a.subject, b.subject], new Map())).toEqual([]);
    expect(() => assertHandlerCoverage('svc', [a, b], [a.subject, b.subject], new Map())).not.toThrow();
  });

  it('names a row without a handler, and a handler on a subject the service does not own', () => {
    expect(handlerCoverageProblems([a, b], [a.subject, 'test.coverage.stray'], new Map())).toEqual([
      'test.coverage.b: no handler',
      'test.coverage.stray: handled here, but not a row of this service',
    ]);
    expect(() => assertHandlerCoverage('svc', [a, b], [a.subject], new Map())).toThrow(
      /svc: its operation rows and handlers disagree:\n {2}test\.coverage\.b: no handler/,
    );
  });

  it("holds a handler to its row's reply type (checked by the compiler: a wrong reply does not build)", () => {
    const typed = op<Body, { id: string }>()({ subject: 'test.coverage.typed', payload: Body, access: 'principal' });
    class Handlers {
      @Operation(typed)
      right() {
        return Promise.resolve({ id: 'a' });
      }

      // @ts-expect-error -- the row replies {id: string}
      @Operation(typed)
      wrong() {
        return { name: 'a' };
      }
    }
    expect(new Handlers().right()).toBeInstanceOf(Promise);
  });

  it('@Operation remembers every method that claims a row, so two handlers of one row are refused (Nest would keep one)', () => {
    const twice = row('test.coverage.twice');
    @Controller()
    class First {
      @Operation(twice)
      handle() {
        return 1;
      }
    }
    @Controller()
    class Second {
      @Operation(twice)
      serve() {
        return 2;
      }
    }
    expect([First, Second]).toHaveLength(2);
    expect(declaredOperations().get(twice.subject)).toEqual(['First.handle', 'Second.serve']);
    expect(handlerCoverageProblems([twice], [twice.subject], declaredOperations())).toEqual([
      'test.coverage.twice: 2 handlers (First.handle, Second.serve); a row has exactly one',
    ]);
  });
});
