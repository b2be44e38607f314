-- CreateTable
CREATE TABLE "challenges" (
    "id" UUID NOT NULL,
    "challenger" TEXT NOT NULL,
    "dest_user" TEXT NOT NULL,
    "preset" TEXT,
    "ruleset_id" UUID,
    "overrides" JSONB NOT NULL DEFAULT '{}',
    "turn_time_limit" TEXT,
    "on_expiry" TEXT NOT NULL,
    "rated" BOOLEAN NOT NULL DEFAULT false,
    "seat" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "decline_reason" TEXT,
    "match_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "answered_at" TIMESTAMPTZ(3),

    CONSTRAINT "challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "player_settings" (
    "player" TEXT NOT NULL,
    "accept_challenges" TEXT NOT NULL DEFAULT 'everyone',

    CONSTRAINT "player_settings_pkey" PRIMARY KEY ("player")
);

-- CreateTable
CREATE TABLE "rematch_offers" (
    "match_id" UUID NOT NULL,
    "asked" TEXT[],
    "status" TEXT NOT NULL DEFAULT 'open',
    "declined_by" TEXT,
    "new_match_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rematch_offers_pkey" PRIMARY KEY ("match_id")
);

-- CreateTable
CREATE TABLE "clock_low_notices" (
    "match_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "clock_low_notices_pkey" PRIMARY KEY ("match_id")
);

-- CreateIndex
CREATE INDEX "challenges_dest_user_status_idx" ON "challenges"("dest_user", "status");

-- CreateIndex
CREATE INDEX "challenges_challenger_status_idx" ON "challenges"("challenger", "status");

-- CreateIndex
CREATE UNIQUE INDEX "rematch_offers_new_match_id_key" ON "rematch_offers"("new_match_id");
