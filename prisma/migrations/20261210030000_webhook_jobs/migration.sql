-- Written by hand (Prisma does not manage functions nor pg-boss's schema): webhook deliveries on the one job queue
-- (issue 44). Each attempt at a delivery is a 'webhook-delivery' job keyed `<delivery id>:<attempt>`; the row keeps
-- the delivery's state (status, attempts, next_attempt_at, the last answer), the queue carries the attempts, so
-- there is no claim or lease on webhook_deliveries any more (src/webhooks/webhook-worker.ts).

-- A worker killed mid-attempt leaves its job active: pg-boss expires it and runs it again, so the kind retries
-- (its policy, src/jobs/job-kinds.ts, set again by JobQueue.start). A failed send is not such a retry: the handler
-- records it and queues the next attempt as a job of its own.
UPDATE pgboss.queue SET retry_limit = 5, retry_delay = 10, retry_backoff = true, updated_on = now() WHERE name = 'webhook-delivery';

-- The one writer of the outbox, as before (one row per subscribed webhook of the player), now also queuing each
-- row's first attempt, in the same transaction as the row: the append's trigger, the application's player events
-- (src/webhooks/outbox.ts) and analysisReady all call it.
CREATE OR REPLACE FUNCTION "scopa_enqueue_webhook"(p_player TEXT, p_event TEXT, p_payload JSONB) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  delivery uuid;
BEGIN
  FOR delivery IN
    INSERT INTO webhook_deliveries (id, webhook_id, event, payload)
    SELECT gen_random_uuid(), w.id, p_event, p_payload FROM webhooks w WHERE w.username = p_player AND p_event = ANY (w.events)
    RETURNING id
  LOOP
    PERFORM scopa_enqueue_job('webhook-delivery', delivery::text || ':1', jsonb_build_object('deliveryId', delivery::text, 'attempt', 1), NULL);
  END LOOP;
END;
$$;

-- The deliveries pending now (written before this migration, or claimed by a worker that died): their next attempt,
-- once, when it was due (a lease still running: when it runs out).
SELECT scopa_enqueue_job('webhook-delivery', d.id::text || ':' || (d.attempts + 1)::text,
                         jsonb_build_object('deliveryId', d.id::text, 'attempt', d.attempts + 1),
                         CASE WHEN d.next_attempt_at > now() THEN d.next_attempt_at END)
FROM webhook_deliveries d WHERE d.status = 'pending';

