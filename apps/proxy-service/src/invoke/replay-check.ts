import { OPS, ProblemError, conflict, forbidden, type RecordedProxyReply } from '@coffer/contracts';
import type { RpcClient } from '@coffer/bus';
import { asCaller } from '@coffer/operations';

/**
 * Before an idempotent replay hands out a stored answer — which may quote what the first call detokenized — the
 * caller must still be allowed to use every token that call detokenized, as a react replay checks
 * (reactor-service's react-replies): `403` when its access was narrowed since, `409` when such a token is gone. The
 * check is a detokenization as the operation's caller (`asCaller()`; audited as a use, since the replay hands out
 * what that use produced); its values are discarded. Called only inside the proxy.invoke operation.
 */
export async function recheckReplay(rpc: RpcClient, recorded: RecordedProxyReply): Promise<void> {
  const used = recorded.usedTokenIds ?? [];
  if (used.length === 0) return;
  try {
    await rpc.call(OPS.token.tokens.detokenize, { payload: used.map((id) => `{{ ${id} }}`), path: 'request' }, asCaller());
  } catch (err) {
    if (err instanceof ProblemError && err.status === 403) throw forbidden('The API key may no longer use a token that the original request detokenized');
    if (err instanceof ProblemError && (err.status === 400 || err.status === 404))
      throw conflict('A token that the original request detokenized no longer exists');
    throw err;
  }
}

/** The answer as the caller gets it: the recorded tokens stay in the idempotency record. */
export function answerOf<B>({ status, headers, body }: { status: number; headers: [string, string][]; body: B }): {
  status: number;
  headers: [string, string][];
  body: B;
} {
  return { status, headers, body };
}
