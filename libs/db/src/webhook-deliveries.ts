import type { Prisma } from './generated/prisma/client';

/**
 * The state a finished webhook delivery takes when it is sent again (the API's resend in webhook-dispatcher, the
 * operator CLI's `webhooks resend`): due now, attempts from zero, nothing left of its last attempt. One definition,
 * so the two ways of re-sending cannot drift apart.
 */
export function deliveryQueuedAgain(): Prisma.WebhookDeliveryUpdateManyMutationInput {
  return {
    status: 'pending',
    attempts: 0,
    nextAttemptAt: new Date(),
    lockedUntil: null,
    lastError: null,
    lastStatusCode: null,
    lastDurationMs: null,
    deliveredAt: null,
  };
}
