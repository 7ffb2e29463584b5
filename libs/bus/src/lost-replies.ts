/**
 * A responder's replies that a lost connection took with it, and the notices that tell their callers at once.
 *
 * A service answers a request only through `allow_responses` (deploy/nats/permissions.json): the server that delivered
 * the request lets that one connection publish to its reply subject. When the connection loses its server (the node
 * dies), the service reconnects to another within milliseconds, but there:
 * - a reply to a request received before is refused (a permissions violation), and
 * - a reply published in the moments before the loss was noticed may have died with the socket.
 * Its caller would wait out its deadline (5 s for most calls). Instead, for each such request the responder publishes an
 * empty notice on `rpc.lost.<the reply subject>`, which the caller's ReplyInbox reads to fail that request at once, as
 * a timeout would (504: it may have been carried out). A notice for a reply that did arrive finds nothing waiting and
 * is ignored.
 *
 * A notice carries nothing but its subject, and a reply subject ends in a token its caller drew at random: a service
 * allowed to publish notices can make a caller give up early on a request sent to it, never forge an answer.
 */
export const LOST_REPLY_PREFIX = 'rpc.lost.';

export const lostReplySubject = (replySubject: string): string => `${LOST_REPLY_PREFIX}${replySubject}`;

/** How far back a reply counts as possibly lost when the connection's loss is noticed (one to two such windows). */
const SUSPECT_WINDOW_MS = 1_000;

export class LostReplies {
  /** counts the connections: a request is answerable only on the one it came in on */
  private generation = 0;
  /** reply subjects answered in this window and the one before it */
  private recent: string[] = [];
  private previous: string[] = [];
  private windowStart = 0;

  /** The connection a request arriving now comes in on. */
  get connection(): number {
    return this.generation;
  }

  /**
   * Called as a reply to a request received on `receivedOn` is about to be published: true when it can be, false when
   * that connection is gone (publish `lostReplySubject(replySubject)` instead).
   */
  answerable(replySubject: string, receivedOn: number): boolean {
    if (receivedOn !== this.generation) return false;
    const now = performance.now();
    if (now - this.windowStart > SUSPECT_WINDOW_MS) {
      this.previous = this.recent;
      this.recent = [];
      this.windowStart = now;
    }
    this.recent.push(replySubject);
    return true;
  }

  /**
   * The connection lost its server: later replies to the requests it received are not answerable, and the reply
   * subjects answered shortly before are returned, to be told once the connection is back.
   */
  connectionLost(): string[] {
    this.generation++;
    const suspects = this.previous.concat(this.recent);
    this.previous = [];
    this.recent = [];
    return suspects;
  }
}
