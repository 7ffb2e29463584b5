/**
 * A transform's failure inside the transform worker, where the contracts library (and its ProblemError) is not
 * loaded: `input` is the message's or the proxy's fault (400, naming the field), `budget` the call's time or byte
 * budget spent (422). ProxyTransforms turns it into the problem the caller gets.
 */
export class TransformError extends Error {
  constructor(
    readonly kind: 'input' | 'budget',
    message: string,
    readonly field?: string,
    readonly title?: string,
  ) {
    super(message);
    this.name = 'TransformError';
  }
}
