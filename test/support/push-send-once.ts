/**
 * One push through the service's own sender (src/push/push-sender.ts), in a process of its own, with no TLS option:
 * the push requests trust what Node trusts, NODE_EXTRA_CA_CERTS included, which Node reads only at process start
 * (test/push.e2e-spec.ts starts this with and without it). Prints the outcome as one JSON line.
 * Input: PUSH_TEST_ENDPOINT, PUSH_TEST_P256DH, PUSH_TEST_AUTH.
 */
import webpush from 'web-push';
import { PushSender } from '../../src/push/push-sender';
import { pushPayload } from '../../src/push/push-payloads';
import { WebhookTargetPolicy } from '../../src/webhooks/target-policy';

async function main(): Promise<void> {
  const keys = webpush.generateVAPIDKeys();
  const sender = new PushSender({ ...keys, subject: 'mailto:push-test@example.com' }, new WebhookTargetPolicy(true), 5000);
  try {
    const outcome = await sender.send(
      { endpoint: process.env.PUSH_TEST_ENDPOINT!, p256dh: process.env.PUSH_TEST_P256DH!, auth: process.env.PUSH_TEST_AUTH! },
      pushPayload('analysisReady', { matchId: 'm-1', analyzer: 'ismcts/1' }),
    );
    process.stdout.write(JSON.stringify(outcome) + '\n');
  } finally {
    sender.close();
  }
}

void main();
