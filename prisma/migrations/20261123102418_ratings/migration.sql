-- Ratings, a projection of the logs of rated matches (README, "Ratings"); rebuilt by npm run ratings:rebuild.

-- CreateTable
CREATE TABLE "ratings" (
    "pool" TEXT NOT NULL,
    "player" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "rd" DOUBLE PRECISION NOT NULL,
    "volatility" DOUBLE PRECISION NOT NULL,
    "games" INTEGER NOT NULL DEFAULT 0,
    "wins" INTEGER NOT NULL DEFAULT 0,
    "losses" INTEGER NOT NULL DEFAULT 0,
    "draws" INTEGER NOT NULL DEFAULT 0,
    "last_rated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ratings_pkey" PRIMARY KEY ("pool","player")
);

-- CreateTable
CREATE TABLE "rated_matches" (
    "match_id" UUID NOT NULL,
    "pool" TEXT NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,
    "counted" BOOLEAN NOT NULL,
    "reason" TEXT,

    CONSTRAINT "rated_matches_pkey" PRIMARY KEY ("match_id")
);

-- CreateTable
CREATE TABLE "rating_changes" (
    "match_id" UUID NOT NULL,
    "player" TEXT NOT NULL,
    "pool" TEXT NOT NULL,
    "side" INTEGER NOT NULL,
    "rank" INTEGER NOT NULL,
    "result" TEXT NOT NULL,
    "rating_before" DOUBLE PRECISION NOT NULL,
    "rd_before" DOUBLE PRECISION NOT NULL,
    "volatility_before" DOUBLE PRECISION NOT NULL,
    "rating_after" DOUBLE PRECISION NOT NULL,
    "rd_after" DOUBLE PRECISION NOT NULL,
    "volatility_after" DOUBLE PRECISION NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rating_changes_pkey" PRIMARY KEY ("match_id","player")
);

-- CreateIndex
CREATE INDEX "ratings_player_idx" ON "ratings"("player");

-- CreateIndex
CREATE INDEX "ratings_pool_rating_idx" ON "ratings"("pool", "rating" DESC);

-- CreateIndex
CREATE INDEX "rating_changes_player_pool_ended_at_idx" ON "rating_changes"("player", "pool", "ended_at");

-- AddForeignKey
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "rated_matches"("match_id") ON DELETE CASCADE ON UPDATE CASCADE;
