-- AlterTable
ALTER TABLE "matches" ADD COLUMN     "visibility" TEXT NOT NULL DEFAULT 'public';

-- CreateTable
CREATE TABLE "seeks" (
    "id" UUID NOT NULL,
    "player" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "bucket" TEXT NOT NULL,
    "preset" TEXT NOT NULL,
    "ruleset_id" UUID,
    "overrides" JSONB NOT NULL,
    "options" JSONB NOT NULL,
    "players" INTEGER NOT NULL,
    "turn_time_limit" TEXT,
    "on_expiry" TEXT NOT NULL,
    "rated" BOOLEAN NOT NULL,
    "rating" INTEGER NOT NULL,
    "rating_min" INTEGER,
    "rating_max" INTEGER,
    "correspondence" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "match_id" UUID,
    "seat" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "seeks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "seeks_bucket_status_created_at_idx" ON "seeks"("bucket", "status", "created_at");

-- CreateIndex
CREATE INDEX "seeks_player_status_idx" ON "seeks"("player", "status");

-- CreateIndex
CREATE INDEX "seeks_status_correspondence_last_seen_at_idx" ON "seeks"("status", "correspondence", "last_seen_at");

-- Added by hand: the lobby's page (newest open public matches first) reads this index only.
CREATE INDEX "matches_lobby_idx" ON "matches"("created_at" DESC, "id" DESC) WHERE "status" = 'open' AND "visibility" = 'public' AND "imported" = false;
