-- Written by hand (Prisma does not manage pg-boss's schema nor functions): the one job queue of issue 44
-- (docs/operations.md "Background work"). One pg-boss queue per kind of src/jobs/job-kinds.ts (their policies are
-- set again at each start by JobQueue.start), and the SQL writer of a job, so that a transaction of the service (the
-- append's trigger, a tournament's round) queues the job its effect causes in the same commit.
SELECT pgboss.create_queue('match-rating', '{"policy":"standard","retryLimit":10,"retryDelay":1,"retryBackoff":true,"expireInSeconds":60}'::json);
SELECT pgboss.create_queue('tournament-result', '{"policy":"standard","retryLimit":10,"retryDelay":1,"retryBackoff":true,"expireInSeconds":60}'::json);
SELECT pgboss.create_queue('tournament-round', '{"policy":"standard","retryLimit":10,"retryDelay":1,"retryBackoff":true,"expireInSeconds":300}'::json);
SELECT pgboss.create_queue('match-deadline', '{"policy":"standard","retryLimit":10,"retryDelay":1,"retryBackoff":true,"expireInSeconds":60}'::json);
SELECT pgboss.create_queue('webhook-delivery', '{"policy":"standard","retryLimit":0,"retryDelay":1,"retryBackoff":false,"expireInSeconds":120}'::json);

-- A job's id from its kind and key, as src/jobs/job-ids.ts computes it.
CREATE FUNCTION scopa_job_id(kind text, job_key text) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT md5(kind || ':' || job_key)::uuid
$$;

-- Inserts a job as pg-boss 10's send does (plans.insertJob, schema version 24: the queue's policy, retention and
-- dead letter), with the id scopa_job_id(kind, key): true when queued, false when that job is already kept.
-- test/job-queue.e2e-spec.ts compares its row with boss.send's.
CREATE FUNCTION scopa_enqueue_job(kind text, job_key text, job_data jsonb, not_before timestamptz DEFAULT NULL) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  inserted integer;
BEGIN
  INSERT INTO pgboss.job (id, name, data, priority, start_after, singleton_key, singleton_on, dead_letter, expire_in, keep_until,
                          retry_limit, retry_delay, retry_backoff, policy)
  SELECT scopa_job_id(kind, job_key), q.name, job_data, 0, s.start_after, NULL, NULL, q.dead_letter,
         COALESCE(q.expire_seconds * interval '1s', interval '15 minutes'),
         s.start_after + COALESCE((q.retention_minutes * 60)::text, '14 days')::interval,
         COALESCE(q.retry_limit, 2),
         CASE WHEN COALESCE(q.retry_backoff, false) THEN GREATEST(COALESCE(q.retry_delay, 0), 1) ELSE COALESCE(q.retry_delay, 0) END,
         COALESCE(q.retry_backoff, false),
         q.policy
  FROM pgboss.queue q, (SELECT COALESCE(not_before, now()) AS start_after) s
  WHERE q.name = kind
  ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS inserted = ROW_COUNT;
  IF inserted = 0 AND NOT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = kind) THEN
    RAISE EXCEPTION 'no job queue %', kind;
  END IF;
  RETURN inserted > 0;
END;
$$;
