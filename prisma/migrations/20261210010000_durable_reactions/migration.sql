-- Written by hand (issue 44, docs/operations.md "Background work"): the append's trigger function of
-- 20261127020000_match_finished_only_for_subscribers, which also queues, in the appending transaction, the
-- durable reactions to a match's end (pg-boss jobs through scopa_enqueue_job, 20261210000000_job_queue):
-- - 'match-rating' for a rated match (its MatchCreated says so), run by src/ratings/ratings-recorder.service.ts;
-- - 'tournament-result' for a tournament table, run by src/tournaments/tournament-reactions.ts.
-- An append that ends no match pays nothing more. The rating queue is a singleton (one job active at a time,
-- whatever the workers), fetched in the order the jobs were made: the order the matches ended.
UPDATE pgboss.queue SET policy = 'singleton' WHERE name = 'match-rating';

CREATE OR REPLACE FUNCTION "scopa_async_play_after_append"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  turn_deadline timestamptz := NULL;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.current_seq = OLD.current_seq THEN
    RETURN NULL;
  END IF;
  IF NEW.status = 'playing' AND NEW.turn_seat IS NOT NULL AND NEW.turn_time_limit IS NOT NULL THEN
    turn_deadline := now() + NEW.turn_time_limit::interval;
    INSERT INTO match_clocks (match_id, seat, seq, deadline, on_expiry, claimed_until, attempts, kind, start_by, command_key)
    VALUES (NEW.id, NEW.turn_seat, NEW.current_seq, turn_deadline, COALESCE(NEW.on_expiry, 'autoPlay'), NULL, 0, 'turn', NULL, NULL)
    ON CONFLICT (match_id) DO UPDATE SET seat = EXCLUDED.seat, seq = EXCLUDED.seq, deadline = EXCLUDED.deadline,
      on_expiry = EXCLUDED.on_expiry, claimed_until = NULL, attempts = 0, kind = 'turn', start_by = NULL, command_key = NULL;
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
  IF NEW.status = 'playing' AND NEW.turn_player IS NOT NULL THEN
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
