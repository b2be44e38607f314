-- CreateTable
CREATE TABLE "match_clocks" (
    "match_id" UUID NOT NULL,
    "seat" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "deadline" TIMESTAMPTZ(3) NOT NULL,
    "on_expiry" TEXT NOT NULL,
    "claimed_until" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "match_clocks_pkey" PRIMARY KEY ("match_id")
);

-- CreateTable
CREATE TABLE "webhooks" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "events" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "webhook_id" UUID NOT NULL,
    "event" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "response_code" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "match_clocks_deadline_idx" ON "match_clocks"("deadline");

-- CreateIndex
CREATE INDEX "webhooks_username_idx" ON "webhooks"("username");

-- CreateIndex
CREATE INDEX "webhooks_account_id_idx" ON "webhooks"("account_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhook_id_created_at_idx" ON "webhook_deliveries"("webhook_id", "created_at");

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Added by hand (Prisma does not manage triggers): every append updates its
-- matches row (current_seq); in that same statement this trigger
--   * sets the turn clock of a timed match (deadline = now() + the match's
--     turnTimeLimit, an ISO 8601 duration, which PostgreSQL casts to an
--     interval), or removes it when no seat is to move;
--   * writes the webhook outbox: your_turn for the human to move, and
--     match_finished for every seated human once the match is over.
-- Public facts only: no hand, no seed.
CREATE FUNCTION "scopa_async_play_after_append"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  settings jsonb;
  turn_limit text;
  turn_deadline timestamptz := NULL;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.current_seq = OLD.current_seq THEN
    RETURN NULL;
  END IF;
  IF NEW.status = 'playing' AND NEW.turn_seat IS NOT NULL THEN
    SELECT e.payload -> 'settings' INTO settings FROM match_events e WHERE e.match_id = NEW.id AND e.seq = 1;
    turn_limit := settings ->> 'turnTimeLimit';
    IF turn_limit IS NOT NULL THEN
      turn_deadline := now() + turn_limit::interval;
      INSERT INTO match_clocks (match_id, seat, seq, deadline, on_expiry, claimed_until, attempts)
      VALUES (NEW.id, NEW.turn_seat, NEW.current_seq, turn_deadline, COALESCE(settings ->> 'onExpiry', 'autoPlay'), NULL, 0)
      ON CONFLICT (match_id) DO UPDATE SET seat = EXCLUDED.seat, seq = EXCLUDED.seq, deadline = EXCLUDED.deadline,
        on_expiry = EXCLUDED.on_expiry, claimed_until = NULL, attempts = 0;
    ELSE
      DELETE FROM match_clocks WHERE match_id = NEW.id;
    END IF;
  ELSE
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

CREATE TRIGGER "matches_async_play" AFTER INSERT OR UPDATE OF "current_seq" ON "matches"
  FOR EACH ROW EXECUTE FUNCTION "scopa_async_play_after_append"();
