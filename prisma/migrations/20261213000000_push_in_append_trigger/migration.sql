-- The yourTurn push of 20261212010000_push_subscriptions moves into the append's one trigger function
-- (scopa_async_play_after_append, as 20261212000000_vacations left it, plus the push block): one trigger call per
-- append instead of two, and the deadline taken from the clock row just written instead of read back.
DROP TRIGGER IF EXISTS "matches_push_your_turn" ON "matches";
DROP FUNCTION IF EXISTS "scopa_push_your_turn"();

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

  -- yourTurn pushes (src/push), in this trigger rather than one of their own: a second trigger on every append cost
  -- about a fifth of the append's own execution time (EXPLAIN ANALYZE). A turn that did not pass (the same seat to move
  -- again, a clock pause) is not told twice; the deadline is the one the clock row above was given.
  IF NEW.status = 'playing' AND NEW.turn_player IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'playing' OR OLD.turn_seat IS DISTINCT FROM NEW.turn_seat) THEN
    IF EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.username = NEW.turn_player AND 'yourTurn' = ANY (s.kinds)) THEN
      PERFORM scopa_enqueue_push(NEW.turn_player, 'yourTurn', NEW.id || ':' || NEW.current_seq, jsonb_build_object(
        'matchId', NEW.id, 'seq', NEW.current_seq, 'seat', NEW.turn_seat,
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
