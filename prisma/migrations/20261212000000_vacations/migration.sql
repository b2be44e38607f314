-- Written by hand (issue 48, docs/async-play.md "Vacations"): vacations for correspondence play.
-- - vacations: one row per vacation of an account (src/vacations); the allowance counts them.
-- - matches.turn_paused: the projection of the log's clock pauses (scopa-rules/5 ClockPaused/ClockResumed):
--   whether the seat to move has its turn clock paused. Written by every append, like turn_seat.
-- - match_clocks.remaining_ms: a paused turn clock's time left (its deadline is then NULL, so no scan
--   queues it); NULL while the clock runs.
-- - the append trigger (last of 20261210010000_durable_reactions) learns the pauses: an append of clock
--   pauses only keeps the turn's clock (pausing it with the time it had left, resuming it with that time,
--   or leaving it to run: a clock that already ran out is not stopped), and sends no new your_turn; a turn
--   that comes to a paused seat starts paused with its whole time.
-- - the 'vacation-clocks' job queue (src/jobs/job-kinds.ts): a player's correspondence clocks made to follow their
--   vacation, at its start, its early end and its `until`.

CREATE TABLE "vacations" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "until" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "vacations_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "vacations_username_started_at_idx" ON "vacations"("username", "started_at");
-- at most one vacation running per account
CREATE UNIQUE INDEX "vacations_one_running" ON "vacations"("account_id") WHERE "ended_at" IS NULL;

ALTER TABLE "matches" ADD COLUMN "turn_paused" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "match_clocks" ALTER COLUMN "deadline" DROP NOT NULL;
ALTER TABLE "match_clocks" ADD COLUMN "remaining_ms" BIGINT;

SELECT pgboss.create_queue('vacation-clocks', '{"policy":"standard","retryLimit":10,"retryDelay":1,"retryBackoff":true,"expireInSeconds":60}'::json);

CREATE OR REPLACE FUNCTION "scopa_async_play_after_append"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  turn_deadline timestamptz := NULL;
  turn_left bigint := NULL;
  kept boolean := false;
  clk record;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.current_seq = OLD.current_seq THEN
    RETURN NULL;
  END IF;
  IF NEW.status = 'playing' AND NEW.turn_seat IS NOT NULL AND NEW.turn_time_limit IS NOT NULL THEN
    -- The same turn goes on when the append holds nothing but clock pauses (scopa-rules/5): the seat to move
    -- is the same and the row is this turn's. Only then is a second, indexed read made.
    IF TG_OP = 'UPDATE' AND OLD.status = 'playing' AND OLD.turn_seat = NEW.turn_seat THEN
      SELECT c.deadline, c.remaining_ms INTO clk FROM match_clocks c
        WHERE c.match_id = NEW.id AND c.kind = 'turn' AND c.seq = OLD.current_seq AND c.seat = NEW.turn_seat;
      IF FOUND THEN
        IF NOT EXISTS (SELECT 1 FROM match_events e WHERE e.match_id = NEW.id AND e.seq > OLD.current_seq AND e.seq <= NEW.current_seq
                         AND e.type NOT IN ('ClockPaused', 'ClockResumed')) THEN
          kept := true;
        END IF;
      END IF;
    END IF;
    IF kept THEN
      IF clk.remaining_ms IS NULL THEN
        IF NEW.turn_paused AND clk.deadline > now() THEN
          -- paused: the time left is kept, and no deadline runs
          turn_left := ceil(extract(epoch FROM clk.deadline - now()) * 1000)::bigint;
        ELSE
          -- runs on; or it ran out already, and a pause cannot stop it: the expiry keeps its deadline
          turn_deadline := clk.deadline;
        END IF;
      ELSIF NEW.turn_paused THEN
        turn_left := clk.remaining_ms;
      ELSE
        -- resumed with the time it had left
        turn_deadline := now() + make_interval(secs => (clk.remaining_ms / 1000.0)::double precision);
      END IF;
    ELSIF NEW.turn_paused THEN
      -- a turn that comes to a paused seat starts paused, with the whole turn time left
      turn_left := ceil(extract(epoch FROM NEW.turn_time_limit::interval) * 1000)::bigint;
    ELSE
      turn_deadline := now() + NEW.turn_time_limit::interval;
    END IF;
    INSERT INTO match_clocks (match_id, seat, seq, deadline, remaining_ms, on_expiry, claimed_until, attempts, kind, start_by, command_key)
    VALUES (NEW.id, NEW.turn_seat, NEW.current_seq, turn_deadline, turn_left, COALESCE(NEW.on_expiry, 'autoPlay'), NULL, 0, 'turn', NULL, NULL)
    ON CONFLICT (match_id) DO UPDATE SET seat = EXCLUDED.seat, seq = EXCLUDED.seq, deadline = EXCLUDED.deadline,
      remaining_ms = EXCLUDED.remaining_ms, on_expiry = EXCLUDED.on_expiry, claimed_until = NULL, attempts = 0, kind = 'turn',
      start_by = NULL, command_key = NULL;
  ELSIF NEW.status = 'open' THEN
    -- before the start the only row is a pending start: it stays
    NULL;
  ELSIF NEW.turn_time_limit IS NOT NULL OR TG_OP = 'UPDATE' AND OLD.status IS DISTINCT FROM NEW.status THEN
    -- a timed match with nobody to move, or any match that just started or left play: no clock
    DELETE FROM match_clocks WHERE match_id = NEW.id;
  END IF;

  -- Two IFs, not one AND, below: a condition holding a subquery is planned
  -- again on every append whose status makes it false at once (a custom plan
  -- folded to false always looks cheaper than the generic one), a plain one is not.
  IF NEW.status = 'playing' AND NEW.turn_player IS NOT NULL AND NOT kept THEN
    IF EXISTS (SELECT 1 FROM webhooks w WHERE w.username = NEW.turn_player AND 'your_turn' = ANY (w.events)) THEN
      PERFORM scopa_enqueue_webhook(NEW.turn_player, 'your_turn', jsonb_build_object(
        'matchId', NEW.id, 'seq', NEW.current_seq, 'seat', NEW.turn_seat, 'player', NEW.turn_player,
        'deadline', to_char(turn_deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
    END IF;
  END IF;

  IF NEW.status = 'over' AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'over') THEN
    -- The durable reactions to a match's end, queued in this transaction (src/jobs/enqueue.ts): a rated match's
    -- rating, a tournament table's result. One indexed lookup each, on a match's end only.
    IF NOT NEW.imported THEN
      IF EXISTS (SELECT 1 FROM match_events c WHERE c.match_id = NEW.id AND c.seq = 1 AND c.payload -> 'settings' ->> 'rated' = 'true') THEN
        PERFORM scopa_enqueue_job('match-rating', NEW.id || ':' || NEW.current_seq, jsonb_build_object('matchId', NEW.id, 'seq', NEW.current_seq), NULL);
      END IF;
      IF EXISTS (SELECT 1 FROM tournament_tables t WHERE t.match_id = NEW.id) THEN
        PERFORM scopa_enqueue_job('tournament-result', NEW.id || ':' || NEW.current_seq, jsonb_build_object('matchId', NEW.id, 'seq', NEW.current_seq), NULL);
      END IF;
    END IF;
    IF EXISTS (SELECT 1 FROM match_players mp JOIN webhooks w ON w.username = mp.player_id
               WHERE mp.match_id = NEW.id AND 'match_finished' = ANY (w.events)) THEN
      PERFORM scopa_enqueue_webhook(p.player_id, 'match_finished', jsonb_build_object(
        'matchId', NEW.id, 'seq', NEW.current_seq, 'player', p.player_id, 'winner', NEW.winner, 'seat', p.seat))
      FROM (SELECT DISTINCT ON (mp.player_id) mp.player_id, mp.seat FROM match_players mp WHERE mp.match_id = NEW.id ORDER BY mp.player_id, mp.seat) p;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
