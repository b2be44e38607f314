-- CreateTable
CREATE TABLE "push_subscriptions" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "p256dh" TEXT NOT NULL,
    "auth" TEXT NOT NULL,
    "kinds" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "push_subscriptions_username_idx" ON "push_subscriptions"("username");

-- CreateIndex
CREATE UNIQUE INDEX "push_subscriptions_account_id_endpoint_key" ON "push_subscriptions"("account_id", "endpoint");

-- Written by hand (Prisma manages neither pg-boss's schema nor functions nor triggers): Web Push (issue 48,
-- src/push, docs/notifications.md). Each notification to each subscription is a 'push-delivery' job of the one
-- queue (src/jobs/job-kinds.ts; its policy is set again by JobQueue.start), queued in the transaction that commits
-- what it tells of, keyed `<subscription>:<kind>:<key>` so that the same fact queued twice is one push.
SELECT pgboss.create_queue('push-delivery', '{"policy":"standard","retryLimit":6,"retryDelay":5,"retryBackoff":true,"expireInSeconds":30}'::json);

-- The one writer of push jobs: one per subscription of the player that wants `p_kind`. The job carries the public
-- facts only (match id, seq, seat, deadline...); the worker makes the payload from them (src/push/push-payloads.ts).
-- Called by the append's trigger below (yourTurn) and by the application (src/push/push-outbox.ts).
CREATE FUNCTION "scopa_enqueue_push"(p_player TEXT, p_kind TEXT, p_key TEXT, p_facts JSONB) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  sub uuid;
BEGIN
  FOR sub IN SELECT s.id FROM push_subscriptions s WHERE s.username = p_player AND p_kind = ANY (s.kinds) LOOP
    PERFORM scopa_enqueue_job('push-delivery', sub::text || ':' || p_kind || ':' || p_key,
                              jsonb_build_object('subscriptionId', sub::text, 'kind', p_kind, 'facts', p_facts), NULL);
  END LOOP;
END;
$$;

-- yourTurn, in the appending statement: a trigger of its own beside matches_async_play (src/reactions/after-append.ts,
-- step 0), fired after it (triggers fire in name order: its clock row is written), and only while a match is in play
-- with a player to move. A turn that did not pass (the same seat to move again) is not told twice; an append with no
-- subscriber to tell costs one indexed lookup.
CREATE FUNCTION "scopa_push_your_turn"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.current_seq = OLD.current_seq OR (OLD.status = 'playing' AND OLD.turn_seat IS NOT DISTINCT FROM NEW.turn_seat) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.username = NEW.turn_player AND 'yourTurn' = ANY (s.kinds)) THEN
    PERFORM scopa_enqueue_push(NEW.turn_player, 'yourTurn', NEW.id || ':' || NEW.current_seq, jsonb_build_object(
      'matchId', NEW.id, 'seq', NEW.current_seq, 'seat', NEW.turn_seat,
      'deadline', (SELECT to_char(c.deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM match_clocks c
                   WHERE c.match_id = NEW.id AND c.kind = 'turn' AND c.seq = NEW.current_seq)));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "matches_push_your_turn" AFTER INSERT OR UPDATE OF "current_seq" ON "matches"
  FOR EACH ROW WHEN (NEW.status = 'playing' AND NEW.turn_player IS NOT NULL)
  EXECUTE FUNCTION "scopa_push_your_turn"();
