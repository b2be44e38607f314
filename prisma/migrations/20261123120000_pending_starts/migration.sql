-- A match_clocks row is now either the turn clock of the seat to move
-- (kind 'turn', as before) or, before the start, a pending start waiting
-- for the client seeds (kind 'start': README "Player-contributed seeds"),
-- claimed by the same scheduler (src/clocks/clock-scheduler.ts).
ALTER TABLE "match_clocks" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'turn',
ADD COLUMN "start_by" TEXT,
ADD COLUMN "command_key" TEXT;

-- Added by hand: the trigger of *_match_clock_settings, changed in two places.
-- Appends to an open match (joins, client seeds) leave its pending start; the
-- append that starts it replaces the row by the first turn clock (timed) or
-- removes it (untimed), in the same statement, so a started match never keeps
-- a pending start.
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

  IF NEW.status = 'playing' AND NEW.turn_player IS NOT NULL THEN
    INSERT INTO webhook_deliveries (id, webhook_id, event, payload)
    SELECT gen_random_uuid(), w.id, 'your_turn', jsonb_build_object(
      'matchId', NEW.id, 'seq', NEW.current_seq, 'seat', NEW.turn_seat, 'player', NEW.turn_player,
      'deadline', to_char(turn_deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    FROM webhooks w WHERE w.username = NEW.turn_player AND 'your_turn' = ANY (w.events);
  END IF;

  IF NEW.status = 'over' AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'over') THEN
    INSERT INTO webhook_deliveries (id, webhook_id, event, payload)
    SELECT gen_random_uuid(), w.id, 'match_finished', jsonb_build_object(
      'matchId', NEW.id, 'seq', NEW.current_seq, 'player', w.username, 'winner', NEW.winner,
      'seat', (SELECT mp.seat FROM match_players mp WHERE mp.match_id = NEW.id AND mp.player_id = w.username LIMIT 1))
    FROM webhooks w
    WHERE 'match_finished' = ANY (w.events)
      AND w.username IN (SELECT mp.player_id FROM match_players mp WHERE mp.match_id = NEW.id);
  END IF;
  RETURN NULL;
END;
$$;
