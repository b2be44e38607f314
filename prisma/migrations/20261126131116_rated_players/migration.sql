-- Who took part in each finished rated match that was dealt, and who left it early (docs/ratings.md, "Aborts and
-- the rated-play suspension"): a projection like the other ratings tables, filled by the recorder and by
-- `npm run ratings:rebuild` (run it once after this migration to fill it for matches that ended before).

-- CreateTable
CREATE TABLE "rated_players" (
    "match_id" UUID NOT NULL,
    "player" TEXT NOT NULL,
    "pool" TEXT NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,
    "left_early" BOOLEAN NOT NULL,

    CONSTRAINT "rated_players_pkey" PRIMARY KEY ("match_id","player")
);

-- CreateIndex
CREATE INDEX "rated_players_player_ended_at_idx" ON "rated_players"("player", "ended_at" DESC);
