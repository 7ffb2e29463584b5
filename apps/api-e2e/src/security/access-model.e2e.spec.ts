/**
 * Issue 11, "Prove it": a model-based test of invariants 1–3 (read ceiling, no escalation through writes, sessions
 * capped by their authorizer) against the running system. fast-check generates a world per run (fresh public and
 * private applications with permissions or prioritized rules on nested containers, seed tokens, pending sessions)
 * and a sequence of operations (create, get, list, search, search by `data:` for parts of the plaintext, detokenize,
 * PATCH data/mask/containers/metadata/search_indexes/fingerprint_expression, delete, create and authorize sessions,
 * delete/regenerate/update applications, reactors whose svc acts as an application or that tokenize as it, invoked
 * with react or react-async), and
 * checks every reply and the stored state against the reference model (access-model.ts, written from the contract,
 * independently of libs/auth). The harness is in access-harness/: the shared pool (pool.ts), the world of one run
 * (world.ts), the commands (commands.ts), the checks (checks.ts) and what is generated (generators.ts).
 *
 * Budget: SECURITY_RUNS sequences (default 200) of SECURITY_STEPS operations on average (default 10, at most twice that) from SECURITY_SEED
 * (default 11); `npm run test:security` runs 2000. A failure is shrunk for at most SECURITY_SHRINK_SECONDS (default
 * 90) and printed as the shrunk sequence. Diagnosis helpers: SECURITY_SURVEY=1 keeps going after a violation and
 * prints one example per category; SECURITY_FOCUS=<regex> fails (and shrinks) only on categories matching it; SECURITY_COVERAGE=1 prints which rule of the
 * model decided each operation, with counts; SECURITY_SEED + SECURITY_PATH (printed on failure) replay a counterexample.
 */
import fc from 'fast-check';
import { InvariantViolation, inventory, newStats } from './access-harness/checks';
import { commandArbitraries } from './access-harness/commands';
import { worldSpecArb } from './access-harness/generators';
import { createPool, type Pool } from './access-harness/pool';
import { startWorld } from './access-harness/world';

const RUNS = Number(process.env['SECURITY_RUNS'] ?? 200);
const STEPS = Number(process.env['SECURITY_STEPS'] ?? 10);
const SEED = Number(process.env['SECURITY_SEED'] ?? 11);
const SHRINK_SECONDS = Number(process.env['SECURITY_SHRINK_SECONDS'] ?? 90);
const SURVEY = process.env['SECURITY_SURVEY'] === '1';
const FOCUS = process.env['SECURITY_FOCUS'] ? new RegExp(process.env['SECURITY_FOCUS']) : undefined;

jest.setTimeout(Math.max(15 * 60_000, RUNS * 4_000));

describe('security invariants 1–3 (model-based)', () => {
  let pool: Pool;
  beforeAll(async () => {
    pool = await createPool();
  });

  it(`${RUNS} random sequences of ~${STEPS} operations never exceed the model`, async () => {
    const stats = newStats();
    const started = Date.now();
    let firstFailureAt: number | undefined;
    let lastFailure: { message: string; category: string } | undefined;
    const survey = new Map<string, { count: number; example: string }>();
    let discarded = 0;

    const property = fc.asyncProperty(worldSpecArb, fc.commands(commandArbitraries(), { maxCommands: 2 * STEPS, size: 'max' }), async (spec, cmds) => {
      // once shrinking has run out of time every further candidate passes, which ends it with the smallest so far
      if (firstFailureAt !== undefined && Date.now() - firstFailureAt > SHRINK_SECONDS * 1000) return true;
      const world = await startWorld(pool, spec, stats);
      stats.sequences++;
      try {
        await fc.asyncModelRun(() => ({ model: world, real: world }), cmds);
        await inventory(world);
        return true;
      } catch (err) {
        if (!(err instanceof InvariantViolation)) throw err;
        if (SURVEY) {
          const seen = survey.get(err.category);
          survey.set(err.category, { count: (seen?.count ?? 0) + 1, example: seen?.example ?? err.message });
          return true;
        }
        if (FOCUS && !FOCUS.test(err.category)) {
          discarded++;
          return true;
        }
        firstFailureAt ??= Date.now();
        lastFailure = { message: err.message, category: err.category };
        throw err;
      }
    });

    const replay = process.env['SECURITY_PATH'];
    const out = await fc.check(property, { seed: SEED, numRuns: RUNS, verbose: 0, ...(replay ? { path: replay } : {}) });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const perOp = Object.entries(stats.byOp)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const perCheck = Object.entries(stats.byCheck)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.log(
      `[security] ${stats.sequences} sequences, ${stats.operations} operations (${perOp}), ${stats.checks} invariant checks (${perCheck}), ` +
        `${stats.requests} requests (${stats.throttled} throttled and retried) in ${seconds} s; seed ${SEED}` +
        `\n[security] outcomes: ${Object.entries(stats.byOutcome)
          .sort()
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}` +
        (process.env['SECURITY_COVERAGE'] === '1'
          ? `\n[security] decided by: ${Object.entries(stats.byWhy)
              .sort()
              .map(([k, v]) => `\n  ${v}\t${k}`)
              .join('')}`
          : '') +
        (FOCUS ? `; ${discarded} sequences failed outside the focus ${FOCUS}` : ''),
    );
    if (SURVEY && survey.size) {
      const lines = [...survey.entries()].map(([c, { count, example }]) => `== ${c}: ${count} sequence(s); first:\n${example}`);
      throw new Error(`invariant violations by category (not shrunk):\n${lines.join('\n\n')}`);
    }
    if (out.failed) {
      const counterexample = out.counterexample ? fc.stringify(out.counterexample) : '(none)';
      throw new Error(
        `${lastFailure ? lastFailure.message : String((out.errorInstance as Error)?.stack ?? out.errorInstance)}\n\n` +
          `fast-check: failed after ${out.numRuns} runs and ${out.numShrinks} shrinks; replay with SECURITY_SEED=${out.seed} SECURITY_PATH=${out.counterexamplePath}\n${counterexample}`,
      );
    }
  });
});
